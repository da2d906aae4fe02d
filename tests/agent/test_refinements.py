"""Refinements read from the item's own words: what it leaves open, with its words, limits and negations kept."""

from __future__ import annotations

from safereq.agent.writing.refinements import product_name, refinements


def one(statement: str, nature: str = "behaviour", language: str = "en", product: str = "") -> str:
    (r,) = refinements(statement, nature, language, product)
    return r.statement


def test_the_other_side_of_an_enabling_condition():
    assert one('The system SHALL display a "Submit" button when all required questions are answered.') == \
        'While any required question is not answered, the system SHALL NOT display the "Submit" button.'
    assert one("The app shall enable the Send button once the form is validated.") == \
        "The app shall not enable the Send button before the form is validated."
    assert one("The app shall show the study prompt immediately after successful code validation.") == \
        "The app shall not show the study prompt before successful code validation."
    # a state, not a completion: "before enrollment state is X" would mean nothing
    assert refinements("The system SHALL display the Contact screen when enrollment state is NOT_PARTICIPATING.",
                       "behaviour", "en") == []


def test_a_secret_never_falls_back_to_a_weaker_store_and_a_failed_write_is_never_reported_as_saved():
    secret = one("The system SHALL store enrollment tokens in iOS Keychain on iOS devices.", "design")
    assert secret == ("If the system cannot store enrollment tokens in iOS Keychain on iOS devices, the system SHALL "
                      "report the failure to its caller without storing them anywhere else.")
    record = one("The system SHALL store each questionnaire response as an immutable event.", "design")
    assert record.endswith("instead of reporting it as stored.")
    assert record.count("SHALL") == 1  # one binding verb, as safereq's own checks ask


def test_values_characters_and_validation_the_item_names_are_kept():
    assert one("The trace_view package SHALL support a --mode parameter that accepts the values: core, sponsor, "
               "or combined.", "design") == ("If --mode is given a value other than core, sponsor or combined, the "
                                             "trace_view package SHALL reject it with an error that names the "
                                             "accepted values.")
    chars = one("The system SHALL validate that linking code input contains only uppercase letters A-Z and "
                "digits 0-9.")
    assert "other than uppercase letters A-Z and digits 0-9" in chars and "reject" in chars
    gate = one("The build system SHALL validate sponsor configuration before compilation begins.")
    assert gate.startswith("If the sponsor configuration fails the validation, the build system SHALL stop before "
                           "compilation begins")


def test_process_refinements_keep_the_period_and_name_the_evidence():
    retention = one("The system SHALL retain production artifacts for a minimum of 7 years.", "process")
    assert "7 years" in retention and "record who deleted" in retention
    weekly = one("The system SHALL provide a weekly scheduled workflow that validates all remote sponsor "
                 "repositories.", "process")
    assert "each weekly run" in weekly and "remote sponsor repositories" in weekly and "does not start" in weekly
    # a process item gets only the entries written for processes
    assert refinements("The system SHALL store each record in the archive.", "process", "en") == []


def test_a_selection_without_a_subject_names_the_product_its_parents_name():
    parents = ["OFT offers a command line interface.", "OFT exports specification items to ReqM2 files."]
    assert product_name(parents) == "OFT"
    text = one('Users can select one of the following tracing output formats (aka. "report formats"): * Plain text',
               "design", product=product_name(parents))
    assert text == ("If the user selects a tracing output format that OFT does not support, OFT shall reject "
                    "the selection with a message that names the supported tracing output formats.")
    # no product, no refinement: the subject is never invented
    assert refinements("Users can select one of the following formats: * Plain text", "design", "en") == []
    # "choose between A and B X" is a choice of X
    assert "a newline encoding that OFT" in one(
        "Users can choose between Unix-style and Windows-style newline encoding for outputs.", "design",
        product="OFT")


def test_chinese_refinements():
    ocr = one("检测到用户按下翻译按钮时，系统应该调用OCR服务对目标图片进行文字识别，并在界面上显示识别结果。",
              language="zh")
    assert ocr.startswith("检测到用户按下翻译按钮时，若OCR服务不可用") and "文字识别失败" in ocr
    privacy = one("系统应该保证用户隐私，不记录用户的语音输入内容。", language="zh")
    assert privacy == "系统不应将用户的语音输入内容写入日志、崩溃报告或统计数据。"


def test_a_number_of_the_item_is_never_lost_and_long_text_is_not_matched():
    assert refinements("The system SHALL retain production artifacts for a minimum of 7 years. " * 200,
                       "process", "en") == []


def test_software_refinements_for_interfaces_exports_identifiers_and_audit():
    assert one("The system SHALL expose a linking code validation endpoint at `POST /api/v1/linking/validate`.",
               "design").startswith("If a request to `POST /api/v1/linking/validate` is malformed or not authorised")
    assert "remove the partial JSON file" in one("The system SHALL provide a database export function that "
                                                 "serializes sembast diary tables to a JSON file.", "design")
    assert "keep the UUID v4 identifier generated on first launch unchanged" in one(
        "The mobile application SHALL generate a UUID v4 identifier on first launch after installation.", "design")
    assert one("The system SHALL apply migrations in sequential numbered order.", "design").startswith(
        "The system SHALL refuse to apply a migration whose number is not the next one")
    assert "reject the linking code validation request and leave the stored state unchanged" in one(
        "The system SHALL create an audit log entry for every linking code validation request.", "design")
    assert one("The sponsor portal SHALL validate one-time linking codes submitted by mobile app instances.",
               "design") == ("The sponsor portal SHALL reject a one-time linking code that has already been used, "
                             "and record the attempt.")


def test_a_mode_entered_on_a_threshold_is_not_left_while_the_cause_lasts():
    def stay(statement: str) -> str:
        return next(r.statement for r in refinements(statement, "reaction", "en") if r.id.startswith("stay-"))
    assert stay("When the battery voltage drops below 6.5 V, the EPS shall enter safe mode.") == \
        "While the battery voltage is below 6.5 V, the EPS shall not leave safe mode."
    assert stay("If the board temperature exceeds 85 °C, the controller shall enter a low-power mode.") == \
        "While the board temperature is above 85 °C, the controller shall not leave the low-power mode."


def test_a_mode_entered_on_an_event_is_entered_at_start_up_too():
    (stay, start) = refinements("When the vehicle speed rises above 5 km/h, the lock arbitration function shall "
                                "enter the locked state.", "reaction", "en")
    assert start.statement == ("If the vehicle speed is already above 5 km/h when the lock arbitration function "
                               "starts, the lock arbitration function shall enter the locked state at start-up.")
    assert stay.title == "The locked state kept while the cause lasts"


def test_the_items_condition_is_carried_in_front_of_a_template_that_does_not_place_it():
    assert one("When the user logs in, the app shall store the session token in the Keychain.", "design") == (
        "When the user logs in, if the app cannot store the session token in the Keychain, the app shall report "
        "the failure to its caller without storing it anywhere else.")


def test_a_setting_with_a_range_is_refused_outside_it_and_keeps_every_number():
    (r,) = refinements("GUI shall allow the user to set PIP from 5-55 cmH2O with increments of 1 cm H2O.",
                       "behaviour", "en")
    assert r.id == "setting-out-of-range-step"
    assert r.statement == ("If a value for PIP outside 5-55 cmH2O or not in increments of 1 cm H2O is entered, "
                           "GUI shall reject the value and keep the one in force.")
    (r,) = refinements("GUI must allow adjusting RR from 5-30 bpm with increments of 1", "behaviour", "en")
    assert r.statement.startswith("If a value for RR outside 5-30 bpm or not in increments of 1 is entered, GUI must")
    (r,) = refinements("The HMI shall allow the driver to set the cruise speed between 30 and 180 km/h.",
                       "behaviour", "en")
    assert "outside 30 to 180 km/h" in r.statement and r.statement.count("shall") == 1
    # "X shall allow the user to set ..." is no choice between options whose subject is "X shall"
    assert not any(" shall shall " in f.statement or "shall does" in f.statement
                   for f in refinements("GUI shall allow the user to set the display mode.", "behaviour", "en"))


def test_an_alarm_raised_on_a_state_is_kept_while_the_state_lasts():
    (r,) = refinements("A ventilator operating on battery shall provide a medium priority alarm when the estimated "
                       "remaining operating time is 30 minutes or below.", "reaction", "en")
    assert r.id == "alarm-while-state" and r.statement == (
        "While the estimated remaining operating time is 30 minutes or below, a ventilator operating on battery "
        "shall keep the medium priority alarm active.")  # EARS: the state first
    (r,) = refinements("The ventilator shall initiate a high priority alarm when the proximal tube is not connected.",
                       "reaction", "en")
    assert "is not connected" in r.statement  # the negation kept
    # an event ("is detected") has no duration to keep the alarm for
    assert refinements("The pump shall sound an audible alarm when an occlusion is detected.", "reaction", "en") == []


def test_the_modes_an_alarm_holds_in_come_first_not_after_its_state():
    (r,) = refinements("The ventilator shall initiate a high priority alarm when the proximal tube is not connected "
                       "for all ventilation modes.", "reaction", "en")
    assert r.statement == ("In all ventilation modes, while the proximal tube is not connected, the ventilator shall "
                           "keep the high priority alarm active.")
