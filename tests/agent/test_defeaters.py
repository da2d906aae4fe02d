"""Rebuttals held by the item's own words: its limit carried verbatim, what it relies on, never a generic mode."""

from __future__ import annotations

from safereq.agent.writing.defeaters import defeaters


def test_a_stated_time_limit_is_named_verbatim_in_the_defeater_and_its_mitigation():
    (first, *_) = defeaters("NFR-1", "翻译响应时间：对于用户输入的文本，系统应在1秒内返回翻译结果。", "behaviour", "zh", "software")
    assert first.id == "limit-under-load" and "1秒" in first.statement and "1秒" in first.mitigation
    en = defeaters("REQ-1", "The service shall answer each request within 200 ms.", "behaviour", "en", "software")
    assert en[0].statement.startswith("The 200 ms of REQ-1 could be missed in its worst case (the highest load")
    assert "from the request or event" in en[0].statement  # where the time starts, the judges' first question
    (cycle, *_) = defeaters("REQ-7", "The software shall detect the loss of the CAN frame within 200 ms.", "detection",
                            "en", "generic")
    assert cycle.id == "limit-in-cycles" and "cycle" in cycle.statement and "budget" in cycle.mitigation


def test_what_the_item_relies_on_names_the_defeater():
    hook = defeaters("OPS-1", "The pre-commit hook SHALL reject commits with format errors.", "behaviour", "en", "software")
    assert any(d.id == "bypassed-control" and "pre-commit hook" in d.statement for d in hook)
    store = defeaters("DEV-1", "The system SHALL store enrollment tokens in iOS Keychain.", "design", "en", "software")
    assert [d.id for d in store] == ["interrupted-write"] and "power loss" in store[0].statement.lower()


def test_a_requirement_that_gives_no_hold_gets_no_defeater():
    assert defeaters("SYSR-1", "`help`, `-h` and `--help` show the version of OFT.", "behaviour", "en", "software") == []


def test_the_protection_defeater_is_for_hardware_not_for_a_privacy_requirement():
    hw = defeaters("HW-1", "The board shall include reverse polarity protection.", "design", "en", "hardware")
    assert [d.id for d in hw] == ["latent-protection"]
    assert defeaters("SR-4", "The app shall give data protection to the photo library.", "design", "en", "software") == []


def test_hostile_long_statements_are_not_matched_at_all():
    from safereq.agent.writing.analogues import transfer
    from safereq.agent.writing.refinements import refinements

    huge = "The system shall " + "store the value and " * 20_000 + "report it."
    assert defeaters("X-1", huge, "behaviour", "en") == []
    assert refinements(huge, "behaviour", "en") == []
    assert transfer(huge, huge, huge) is None


def test_security_defeaters_name_the_items_own_mechanism():
    codes = defeaters("DEV-78", "The sponsor portal SHALL validate one-time linking codes submitted by mobile app instances.",
                      "behaviour", "en", "software")
    assert [d.id for d in codes] == ["one-time-code"] and "brute force" in codes[0].statement
    zh = defeaters("SR-4", "系统应该对用户图库进行保护，确保不被未授权的其他脚本访问。", "behaviour", "zh", "software")
    assert [d.id for d in zh] == ["authorised-but-compromised"] and "最小权限" in zh[0].mitigation


def test_what_a_software_item_trusts_or_walks_names_a_concrete_defeater():
    token = defeaters("DEV-1", "The system SHALL obtain the portal URL from the authentication token after login.",
                      "behaviour", "en", "software")
    assert [d.id for d in token] == ["token-claims"] and "expired" in token[0].statement
    walk = defeaters("SYSR-1", "If users select no input, the tool imports from the current directory recursively.",
                     "behaviour", "en", "software")
    assert "recursive-traversal" in [d.id for d in walk] and "symbolic link" in walk[-1].statement
    plugins = defeaters("SYSR-2", "The tool loads plugins from JAR files in a predefined location at startup.",
                        "behaviour", "en", "software")
    assert "plugin-loading" in [d.id for d in plugins]
    auto = defeaters("OPS-1", "The system SHALL automatically classify incident severity based on alerts.",
                     "behaviour", "en", "software")
    assert [d.id for d in auto] == ["automatic-decision"] and "review" in auto[0].mitigation
    zh = defeaters("SR-1", "系统应递归读取所选目录中的文件。", "behaviour", "zh", "software")
    assert "recursive-traversal" in [d.id for d in zh] and "符号链接" in [d for d in zh if d.id == "recursive-traversal"][0].statement


def test_storing_a_token_or_naming_a_plugin_type_is_no_hold_for_those_defeaters():
    # a token that is stored is not read for its claims; a list of plugin kinds loads nothing
    assert "token-claims" not in [d.id for d in defeaters(
        "DEV-2", "The system SHALL store enrollment tokens in iOS Keychain.", "design", "en", "software")]
    assert "plugin-loading" not in [d.id for d in defeaters(
        "SYSR-3", "The tool supports the following plugin types: importers and exporters.", "behaviour", "en", "software")]


def ids(item_id: str, statement: str, nature: str = "behaviour", lang: str = "en", domain: str = "software"):
    return [d.id for d in defeaters(item_id, statement, nature, lang, domain)]


def test_a_distance_to_keep_is_read_as_a_measured_value_but_a_test_condition_is_not():
    (d, *_) = defeaters("R-1", "The robot shall maintain a clearance of 0.5 m to any person.", "behaviour", "en")
    assert d.id == "measured-limit" and "0.5 m" in d.statement and "0.5 m" in d.mitigation
    assert "measured-limit" not in ids("SYS-3", "The system shall capture visible smoke when the nozzle is placed "
                                                "within 15 cm of the joint.")


def test_continuous_monitoring_can_stop_silently_and_what_it_monitors_is_no_dependency():
    mon = defeaters("OPS-5", "The operations team SHALL continuously monitor audit trail integrity.", "behaviour", "en")
    assert any(d.id == "pipeline-not-run" and "monitoring run" in d.statement for d in mon)
    # the endpoint being down is what the monitor exists to detect, not a failure of it
    assert "external-dependency" not in ids("OPS-46", "The system SHALL monitor API endpoint availability every 60 "
                                                      "seconds.")
    assert "external-dependency" not in ids("OPS-41", "The system SHALL use Pulumi for all GCP infrastructure.")
    assert "interrupted-write" not in ids("OPS-7", "The system SHALL store role definitions in the database.",
                                          "design")


def test_software_operations_defeaters_name_what_an_expert_names_first():
    (rls, *_) = defeaters("DEV-22", "The system SHALL implement PostgreSQL RLS policies to give analysts read-only "
                                    "access.", "design", "en")
    assert rls.id == "policy-bypassed" and "BYPASSRLS" in rls.statement
    assert ids("OPS-48", "The system SHALL continuously verify audit trail cryptographic hashes to detect "
                         "tampering.")[0] == "hash-recomputed"
    assert "unreadable-retention" in ids("OPS-49", "The system SHALL retain production artifacts for a minimum of "
                                                   "7 years.")
    assert "unreadable-retention" not in ids("OPS-74", "The system SHALL verify all database backups for integrity "
                                                       "and restorability.")
    assert "shared-across-environments" in ids("OPS-50", "The system SHALL maintain three isolated environments: "
                                                         "development, staging, and production.")
    assert "platform-differences" in ids("DEV-56", "Development environments SHALL function identically on "
                                                   "Windows, Linux, and macOS.")


def test_a_physical_limit_is_asked_for_its_conditions():
    (d,) = defeaters("EPS-2", "The battery shall provide 20 Wh of capacity.", "behaviour", "en", "hardware")
    assert d.id == "conditions-unstated" and "20 Wh" in d.statement and "end of life" in d.mitigation
    assert "conditions-unstated" not in ids("REQ-1", "The service shall answer within 200 ms.")
    assert "conditions-unstated" not in ids("OPS-1", "The team shall review the 20 kg lifting procedure.", "process")


def test_a_threshold_that_triggers_a_reaction_is_asked_for_hysteresis_not_for_its_supply():
    for statement in ("When the battery voltage drops below 6.5 V, the EPS shall enter safe mode.",
                      "If the board temperature exceeds 85 °C, the controller shall enter a low-power mode."):
        found = ids("EPS-1", statement, "reaction", domain="hardware")
        assert found[0] == "threshold-chatter", found
        assert "supply-out-of-range" not in found and "conditions-unstated" not in found
    (d, stuck) = defeaters("EPS-1", "When the battery voltage drops below 6.5 V, the EPS shall enter safe mode.",
                           "reaction", "en", "hardware")
    assert "6.5 V" in d.statement and "hysteresis" in d.mitigation
    # the second: a sensor failing within its range never crosses the threshold at all
    assert stuck.id == "stuck-sensor" and "6.5 V" in stuck.statement and "plausibility" in stuck.mitigation
    assert ids("SR-9", "当电池电量低于20%时，系统应提示用户充电。", "reaction", "zh") == ["threshold-chatter", "stuck-sensor"]


def test_a_watchdog_gets_its_own_latent_fault_not_the_fuse_and_diode_one():
    found = ids("SYS-21", "The OBC shall include a hardware watchdog with independent protection.", "design",
                domain="hardware")
    assert "watchdog-latent" in found and "latent-protection" not in found


def test_what_the_item_measures_forbids_or_staffs_is_not_what_it_relies_on():
    assert "external-dependency" not in ids("OPS-47", "The system SHALL collect API response times at p50, p95, "
                                                      "and p99 percentiles.")
    assert "external-dependency" not in ids("NFR-4", "用户的个人信息和使用数据应得到充分保护，不得泄露给第三方。",
                                            lang="zh")
    assert "pipeline-not-run" not in ids("OPS-58", "The on-call system SHALL maintain 24/7 coverage through "
                                                   "automated schedule management.")
    assert "bypassed-control" not in ids("OPS-68", "The system SHALL automatically review user access rights "
                                                   "continuously by comparing assigned permissions against used "
                                                   "permissions.")


def test_a_process_item_gets_no_template_that_fits_every_process_item():
    # "names no record of its being done" fits any process item without the word "record": judged generic
    found = defeaters("OPS-13", "Requirements SHALL follow the standardized format defined in "
                                "spec/requirements-format.md.", "process", "en")
    assert not any("record" in d.statement for d in found)


def test_a_ban_on_disclosure_is_not_read_as_a_ban_on_keeping():
    found = ids("NFR-4", "用户的个人信息和使用数据应得到充分保护，不得泄露给第三方。", lang="zh")
    assert "kept-elsewhere" not in found
    assert "kept-elsewhere" in ids("SR-7", "系统应该保证用户隐私，不记录用户的语音输入内容。", lang="zh")


def test_what_a_tool_selects_defaults_to_or_exits_with_gets_its_own_defeater():
    assert ids("SYSR-40", "OFT gives users the option to include only a configurable set of artifact types "
                          "during processing.") == ["filter-matches-nothing"]  # an "option" is no command line
    (default,) = defeaters("SYSR-35", "OFT uses ReqM2 as default conversion format if the user does not select "
                                      "one.", "behaviour", "en", "software")
    assert default.id == "silent-default" and "reject a given value" in default.mitigation
    assert ids("SYSR-42", "Unless selected by the user, OFT uses the native newline format of the platform it "
                          "runs on for outputs.") == ["silent-default"]
    assert ids("SYSR-24", "The plain text report supports color to visually separate report elements.") == [
        "colour-only"]
    assert ids("SYSR-32", "The return value of the OFT executable reflects the overall tracing result.") == [
        "exit-status"]
    assert ids("SYSR-25", "OFT creates the HTML Report as a single file.") == []


def test_a_configured_time_is_asked_for_its_range_but_a_configured_display_is_not():
    (d,) = defeaters("SYS-010", "The system shall automatically stop after a configurable period of inactivity "
                                "(30 minutes).", "reaction", "en", "hardware")
    assert d.id == "configured-value" and "range" in d.mitigation
    assert "configured-value" not in ids("SYSR-26", "OFT allows configuring the display status of specification "
                                                    "item details to expanded or collapsed by default.")


def test_operations_controls_get_the_bypass_an_expert_names_first():
    assert ids("OPS-6", "The system SHALL enforce multi-factor authentication for all clinical staff "
                        "accounts.") == ["mfa-bypass"]
    assert ids("OPS-53", "The system SHALL block direct commits to the main branch.") == ["branch-bypass"]
    assert ids("OPS-41", "The system SHALL use Pulumi for all GCP infrastructure and cloud resources.",
               "design") == ["infrastructure-drift"]
    assert ids("DEV-10", "The application SHALL enforce HTTPS for all HTTP connections.") == ["transport-downgrade"]
    assert ids("OPS-45", "The system SHALL capture all unhandled exceptions in frontend and backend "
                         "components.") == ["capture-gap"]
    assert ids("OPS-47", "The system SHALL collect API response times at p50, p95, and p99 "
                         "percentiles.") == ["percentile-aggregation"]
    assert ids("DEV-83", "The Web Diary SHALL clear localStorage on logout.") == ["logout-only"]
    (d,) = defeaters("NFR-7", "在出现故障时，系统应能在1小时内恢复正常。", "behaviour", "zh", "software")
    assert d.id == "recovery-time" and "1小时" in d.statement and "演练" in d.mitigation
    assert "pipeline-not-run" in ids("OPS-60", "The system SHALL generate monthly SLA compliance reports "
                                               "automatically.")


def test_system_items_get_the_warning_link_command_and_sensor_defeaters():
    assert ids("PMP-1", "The pump shall sound an audible alarm when an occlusion is detected.", "reaction",
               domain="generic") == ["warning-unnoticed"]
    assert ids("UAV-1", "The UAV shall transmit its position to the ground control station.", "behaviour",
               domain="uav") == ["message-lost"]
    assert ids("SYSR-9", "OFT sends the report to standard output.") == []  # a stream is no link
    assert ids("FC-1", "The flight controller shall execute commands received from the ground station.",
               "behaviour", domain="uav") == ["command-integrity"]
    assert ids("SYSR-36", "The CLI provides a help command.") == []
    found = ids("SR-1", "系统应在温度超过60℃时报警。", "reaction", "zh")
    assert found == ["threshold-chatter", "stuck-sensor"]  # a threshold that triggers, not a rating's conditions


def test_identity_cycles_and_markup_are_asked_for_their_hard_cases():
    assert ids("SYSR-13", "OFT marks a specification item as _duplicate_ if other items with the same ID "
                          "exist.") == ["identity-as-written"]
    assert ids("SYSR-15", "OFT detects if specification items are linked in a cycle.") == ["cycle-missed"]
    (html,) = defeaters("SYSR-27", "OFT generates valid HTML format for the HTML report.", "behaviour", "en",
                        "software")
    assert html.id == "markup-injection" and "Escape every text" in html.mitigation
    assert ids("SYSR-31", "OFT uses plain text as requirement tracing output format if the user does not select "
                          "one.") == ["silent-default"]


def test_ranges_durations_and_displays_are_not_misread():
    (d,) = defeaters("SYS-95", "The pressure overshoot during the pressure rise phase shall not exceed 2 cmH2O.",
                     "behaviour", "en", "generic")
    assert d.id == "conditions-unstated" and "2 cmH2O" in d.statement
    found = defeaters("SYS-17", "The device alarms shall be audible (60-80 dBa) at a distance of 1m.", "behaviour",
                      "en", "generic")
    assert not any("-80" in f.statement.replace("60-80", "") for f in found)  # a range is one limit
    assert "conditions-unstated" not in ids("SW-99", "GUI shall allow the user to set PIP from 5-55 cmH2O with "
                                                     "increments of 1 cm H2O.", domain="generic")
    assert "limit-under-load" not in ids("SYS-92", "The device shall be capable of a peak inspiratory flow rate "
                                                   "of at least 60L/min for at least 30 seconds.", domain="generic")
    assert "filter-matches-nothing" not in ids("HW-33", "The assembly shall feature HEPA filters on the blower "
                                                        "intake and exhaust pathways.", "design", domain="hardware")
    assert "colour-only" not in ids("HW-32", "The display shall support touch input, 8-bit color and a minimum "
                                             "refresh rate of 30 fps.", "design", domain="hardware")
    assert ids("SW-73", "High severity alarms shall be indicated with a red color.", domain="generic") == [
        "colour-only"]
    assert "warning-unnoticed" not in ids("SW-70", "GUI displays list of active alarms on button press.")
    assert "warning-unnoticed" not in ids("SW-160", "Self-test shall include validation that all visual alarms "
                                                    "work.")
    (stuck,) = defeaters("SW-138", "GUI needs to automatically invoke a safety action when battery temperature is "
                                   "above threshold", "reaction", "en", "generic")
    assert stuck.id == "stuck-sensor-threshold" and "plausibility" in stuck.mitigation


def test_alarm_handling_logs_and_confirmations_get_their_own_defeater():
    (d,) = defeaters("SW-33", "GUI must allow cancelling alarms", "behaviour", "en", "generic")
    assert d.id == "alarm-silenced" and "stated time" in d.mitigation
    assert ids("SW-26", "The event log must include all alarm occurrences", domain="generic") == ["log-full"]
    assert ids("SW-24", "GUI must require all ventilation and alarm setting changes to be confirmed",
               domain="generic") == ["confirmation-reflex"]
    assert ids("SW-70", "Controller must be able to detect and/or receive alarms from GUI", domain="generic") == [
        "message-lost"]


def test_the_ninth_judges_misfires_stay_fixed():
    # a listing at start-up is no log to fill; a secrets manager is no torn write
    assert "log-full" not in ids("SYSR-45", "OFT logs all currently available plugins at startup.")
    assert "interrupted-write" not in ids("OPS-2", "The system SHALL store all environment credentials in Doppler.",
                                          "design")
    # a setting whose range is stated has its accepted values
    assert "configured-value" not in ids("SYS-110", "The operator can set a threshold for a low patient pressure "
                                                    "alarm in the range 0-20 cmH2O.", domain="generic")
    # a buzzer's 33 ms has no load; a response time has
    assert "limit-under-load" not in ids("SYS-151", "The alarm shall produce sound from an electrical signal "
                                                    "within 33 ms.", domain="generic")
    assert "limit-under-load" in ids("REQ-1", "The controller shall detect a door obstruction within 100 ms.",
                                     domain="generic")
    # a CPU load limit is no availability; a door lock is no mutex; a 20 ms monitor is no CI pipeline
    assert "availability-counting" not in ids("PERF-8", "CPU load shall stay below 80% when all functions are "
                                                        "available.", domain="generic")
    assert "concurrent-use" not in ids("INT-4", "The controller shall drive the door lock output through a GPIO.",
                                       domain="generic")
    assert "pipeline-not-run" not in ids("FUN-17", "The software shall continuously monitor the door sensors every "
                                                   "20 ms.", domain="generic")


def test_the_tenth_judges_misfires_stay_fixed():
    # a cloud service's alerts have no lamp or speaker
    for domain in ("software", "generic"):  # read as either, a cloud service's alerts have no lamp or speaker
        assert "warning-unnoticed" not in ids("OPS-63", "The system SHALL monitor error budget consumption and "
                                                        "provide proactive alerts before SLA breach.", domain=domain)
    assert "warning-unnoticed" in ids("SYS-112", "The ventilator shall provide a medium priority alarm when the "
                                                 "exhaled volume is below the threshold.", domain="generic")
    # a third-party library is no service that can be down when the item is about allocation
    found = ids("OPR-3", "The software shall not use dynamic memory allocation after initialisation, including in "
                         "third-party libraries.", "design", domain="generic")
    assert found[0] == "hidden-allocation" and "external-dependency" not in found
    assert "supply-out-of-range" not in ids("INT-2", "The software shall drive the 24 V lock output through a GPIO.",
                                            domain="generic")
    (d,) = defeaters("SYSR-27", "OFT generates valid HTML format for the HTML report.", "behaviour", "en", "software")
    assert "writes the item texts from input files" in d.statement


def test_the_eleventh_judges_misfires_stay_fixed():
    # no recursion is no directory walk; an assumed value or one stated for any case has its conditions
    assert "recursive-traversal" not in ids("OPR-4", "The software shall not use recursive function calls.",
                                            "design", domain="generic")
    assert "conditions-unstated" not in ids("SAFE-15", "If the speed signal is missing, the software shall use an "
                                                       "assumed speed of 5 km/h.", domain="generic")
    assert "conditions-unstated" not in ids("SYS-10", "The device must prevent patient pressures from exceeding "
                                                      "60 cmH2O in any operating cases or failure modes.",
                                            domain="generic")
    assert "limit-under-load" not in ids("PERF-1", "The control cycle shall complete within 20 ms with a WCET of "
                                                   "16 ms.", domain="generic")


def test_the_twelfth_judges_misfires_stay_fixed():
    assert "supply-out-of-range" not in ids("EPS-3", "The EPS shall provide a regulated 5 V rail to the payload.",
                                            domain="hardware")
    assert "external-dependency" not in ids("OPS-8", "The system SHALL perform automated daily backups of each "
                                                     "sponsor's GCP database.", domain="generic")
    assert "bypassed-control" not in ids("INT-12", "The driver panel shall provide a manual door release input.",
                                         domain="generic")
    assert "bypassed-control" in ids("OPS-9", "Releases SHALL pass a manual review before deployment.", "process")
