from shared import keys


def test_generated_secret_has_prefix_and_is_well_formed():
    secret = keys.generate("ak_")
    assert secret.startswith("ak_")
    assert len(secret) == 3 + keys.BODY_LENGTH + keys.CHECKSUM_LENGTH
    assert keys.is_well_formed(secret, "ak_")


def test_two_secrets_differ():
    assert keys.generate("ak_") != keys.generate("ak_")


def test_secret_with_one_changed_character_fails_the_checksum():
    secret = keys.generate("mk_")
    position = 10
    changed = "A" if secret[position] != "A" else "B"
    broken = secret[:position] + changed + secret[position + 1 :]
    assert not keys.is_well_formed(broken, "mk_")


def test_truncated_extended_or_foreign_secrets_are_malformed():
    secret = keys.generate("ak_")
    assert not keys.is_well_formed(secret[:-1], "ak_")
    assert not keys.is_well_formed(secret + "0", "ak_")
    assert not keys.is_well_formed(secret, "mk_")
    assert not keys.is_well_formed("ak_" + "!" * 38, "ak_")
    assert not keys.is_well_formed("", "ak_")


def test_hash_is_deterministic_and_depends_on_the_pepper():
    secret = keys.generate("ak_")
    assert keys.secret_hash(secret, "pepper") == keys.secret_hash(secret, "pepper")
    assert keys.secret_hash(secret, "pepper") != keys.secret_hash(secret, "other")
    assert len(keys.secret_hash(secret, "pepper")) == 64
    assert secret not in keys.secret_hash(secret, "pepper")


def test_verify_accepts_the_secret_and_refuses_another():
    secret, other = keys.generate("ak_"), keys.generate("ak_")
    stored = keys.secret_hash(secret, "pepper")
    assert keys.verify(secret, stored, "pepper")
    assert not keys.verify(other, stored, "pepper")
    assert not keys.verify(secret, stored, "wrong pepper")


def test_display_prefix_is_the_first_seven_characters():
    secret = keys.generate("ak_")
    assert keys.display_prefix(secret) == secret[:7]
