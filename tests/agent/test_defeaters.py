"""Rebuttals held by the item's own words: its limit carried verbatim, what it relies on, never a generic mode."""

from __future__ import annotations

from safereq.agent.writing.defeaters import defeaters


def test_a_stated_time_limit_is_named_verbatim_in_the_defeater_and_its_mitigation():
    (first, *_) = defeaters("NFR-1", "翻译响应时间：对于用户输入的文本，系统应在1秒内返回翻译结果。", "behaviour", "zh", "software")
    assert first.id == "limit-under-load" and "1秒" in first.statement and "1秒" in first.mitigation
    en = defeaters("REQ-1", "The service shall answer each request within 200 ms.", "behaviour", "en", "software")
    assert en[0].statement.startswith("The 200 ms of REQ-1 could be missed under peak load")


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
    from safereq.agent.writing.splitting import split

    huge = "The system shall " + "store the value and " * 20_000 + "report it."
    assert defeaters("X-1", huge, "behaviour", "en") == []
    assert refinements(huge, "behaviour", "en") == [] and split(huge, "en") == []
    assert transfer(huge, huge, huge) is None


def test_security_defeaters_name_the_items_own_mechanism():
    codes = defeaters("DEV-78", "The sponsor portal SHALL validate one-time linking codes submitted by mobile app instances.",
                      "behaviour", "en", "software")
    assert [d.id for d in codes] == ["one-time-code"] and "brute force" in codes[0].statement
    zh = defeaters("SR-4", "系统应该对用户图库进行保护，确保不被未授权的其他脚本访问。", "behaviour", "zh", "software")
    assert [d.id for d in zh] == ["authorised-but-compromised"] and "最小权限" in zh[0].mitigation
