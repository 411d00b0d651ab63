"""Credentials given in prose, in any order and with any separator, are refused whole and shown
redacted; statements about credentials that hold none are still learned."""

from __future__ import annotations

import pytest

from memory_service.extraction.candidates import SECRET
from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import redact

# Every value below is invented.
CREDENTIALS = [
    ("user svc_ops, password Kite-Fern-4410", "Kite-Fern-4410"),
    ("the pw is Tulip-88-Rain", "Tulip-88-Rain"),
    ("the wifi password is bluebird", "bluebird"),
    ("Kite-Fern-4410 is my password now", "Kite-Fern-4410"),
    ("bluebird is my password now", "bluebird"),
    ("my login is mia.r / Pumpkin88", "Pumpkin88"),
    ("jsmith / Saffron_1971?", "Saffron_1971"),
    ("the alarm code is 4471", "4471"),
    ("gate code 9921#", "9921"),
    ("Back door's 1198.", "1198"),
    ("safe combination is 12-34-56", "12-34-56"),
    ("voicemail pin 7734", "7734"),
    ("badge PIN for the new starter in radiology, J. Amadi, is 6620", "6620"),
    ("card 4111 1111 1111 1111 exp 04/27 cvv 331", "331"),
    ("account number 00123456, routing 021000021", "021000021"),
    ("Rent goes to IE41 WODZ 3560 5443 1183 18 on the first.", "IE41 WODZ 3560 5443 1183 18"),
    ("licence key ABCD-EFGH-IJKL-MNOP", "ABCD-EFGH-IJKL-MNOP"),
    ("recovery key is 4F2A-99C1-7B3E-0D6F", "4F2A-99C1-7B3E-0D6F"),
    ("backup codes: 8841-2231, 9921-0032, 1177-5534", "9921-0032"),
    ("wifi key: sunnyday2024", "sunnyday2024"),
    ("app password xqwp lzhl pnfe uhrz", "xqwp lzhl pnfe uhrz"),
    ("Mi contraseña es Urchin-Copper-6033.", "Urchin-Copper-6033"),
    ("let me spell the wifi key: two, uppercase Q, e, eight", "uppercase Q"),
    ("curl -u deploy:WaffleLotus1642 https://ci.internal/job", "WaffleLotus1642"),
    ("redis://:Badger.Zephyr.751@cache-01:6379/0", "Badger.Zephyr.751"),
    ('POSTGRES_PASSWORD: "OqZ&2+AKcFK0"', "OqZ&2+AKcFK0"),
    ("its nimbussparrowmuffin for the hulu acct", "nimbussparrowmuffin"),
    (
        "Trezor backup: mirror jungle dinner useful buffalo shallow umbrella invest lemon ripple"
        " engine vendor",
        "mirror jungle dinner",
    ),
    ("my phone pinn is 5082", "5082"),
    ("The PUK for the work SIM is 61724093.", "61724093"),
    ("The code for the back gate at the yard is 1984*", "1984"),
    ("the number to the key safe is 3301", "3301"),
    ("4417 gets you through the car park barrier.", "4417"),
    ("The padlock on the shed opens at 2756.", "2756"),
    ("the bike lock pin is three one four one", "three one four one"),
    ("My wallet MPIN is 883104 po", "883104"),
    ("the software serial number is 4410 2291 7730 5521", "4410 2291 7730 5521"),
    ("the padlock on the gate opens with 7-3-0-9", "7-3-0-9"),
    ("the router key is capital M, q, 7, x, r, exclamation mark", "capital M, q, 7"),
    ("the guest WPA2 key is xkqrtvbn", "xkqrtvbn"),
    ("le digicode du parking : 58A21", "58A21"),
    ("the runner's PAT is 7vkz2m9qfx4nhb1yr8tj3dcw6ps5lgae0", "7vkz2m9qfx4nhb1yr8tj3dcw6ps5lgae0"),
    ("pasting the PHPSESSID so I stay logged in: 4k9q2m7v8x1z3b6n0cwd", "4k9q2m7v8x1z3b6n0cwd"),
    (
        "the BitLocker thing is 111222-333444-555666-777888-999000-121212-343434-565656",
        "111222-333444-555666-777888-999000-121212-343434-565656",
    ),
    ("the number thingy for Gran's back door is 1952, her wedding year", "1952"),
    ("my login: same as always but ending 41!", "41!"),
    ("Password's literally open sesame 12, with the spaces", "open sesame 12"),
    ("my banking app wants 771903 every time I open it", "771903"),
    ("The old laptop boots into Windows with falcon77 if you need it.", "falcon77"),
    ("lockscreen is moth42 on the old tablet", "moth42"),
    ("licence for the synth: QRT-88XZ-41PL-WW07", "QRT-88XZ-41PL-WW07"),
    ("my authenticator shows 193 514 right now", "193 514"),
    ("the numbers for the bank thing are four, seven, seven, two", "four, seven, seven, two"),
    ("Security answer (maiden name): Vanderkamp", "Vanderkamp"),
    ("The Amazon voucher from work is BQ4N-77FHT2-KLPM.", "BQ4N-77FHT2-KLPM"),
    ("The ticket security number is 2391 0482 7711.", "2391 0482 7711"),
    ("the swipe thing on my phone is 3-2-1-4-7", "3-2-1-4-7"),
    ("the WPA key on the sticker is c8f2a91d7e", "c8f2a91d7e"),
    ("Netflix password colon open bracket Harbor Lights 31 close bracket", "Harbor Lights 31"),
    ("router key is Tango Seven Bravo Echo One Lima, all caps", "Tango Seven Bravo Echo One Lima"),
    ("recovery answers: street I grew up on Mill Lane", "Mill Lane"),
    ("The locker in the gym is set to 2004, the year we married.", "2004"),
    ("shed padlock \u2013 7 2 0 9 \u2013 squeeze the shackle", "7 2 0 9"),
    ("Porch keypad 1961 then the green key.", "1961"),
    (
        "the share link is https://files.example.net/s/p9QmZr27xkLw, keep it to us",
        "/s/p9QmZr27xkLw",
    ),
    ("Board doc: https://docs.example.org/d/88xq1ZtT0b, don't forward it", "/d/88xq1ZtT0b"),
    ("tablet login is my initials and our wedding year, RPT1998", "RPT1998"),
    ("Nenosiri la benki ni Simba2231", "Simba2231"),
    ("Msimbo wa geti ni 5150", "5150"),
    ("recovery question was first pet and I answered Captain Fluff", "Captain Fluff"),
    ("Meine Sicherheitscodes: 4410 2297, 8812 0043", "4410 2297"),
    ("bike lock is simple, it's 12 times 3 and then a 9, so 369", "369"),
    ("the kids' tablet password is three emoji: rocket, taco, rainbow", "rocket, taco, rainbow"),
    ("pass (part one): Heron", "Heron"),
    ("my pim for the gym card is 3388", "3388"),
    ("6120, that's the keysafe at the cottage", "6120"),
    ("Workshop door code K7731B", "K7731B"),
    ("It's MARIGOLD, so I gave the 1st, 3rd and 5th: M, R and G.", "MARIGOLD"),
    (
        "the prompt I picked was 'first school' and the answer is Hollybank Primary",
        "Hollybank Primary",
    ),
    ("Nenosiri la simu ni saba tatu moja nane", "saba tatu moja nane"),
    ("the code tae the byre is twa-fower-aicht-wan", "twa-fower-aicht-wan"),
    ("Côd y giât ydy chwech, dau, wyth, un.", "chwech, dau, wyth, un"),
    ("la clave de la tarjeta es 5521, no se la des a nadie", "5521"),
    ("Der Tresorcode lautet 7716.", "7716"),
    ("the filing safe is right thirty, left twelve, right fifty-five", "right thirty"),
    ("Staff room door is K4471 since the break-in", "K4471"),
    ("note to self the shed code is for nine to eight", "for nine to eight"),
    ("Password starts Marigold then 1962 then a question mark.", "question mark"),
    ("Password starts Marigold then 1962 then a question mark.", "Marigold"),
    ("A senha começa com Botafogo, depois 1995.", "Botafogo"),
    ("2210 for the front, 7734 for the garage, those are the keypads", "7734"),
    ("the Wi-Fi is dollar sign blue heron twelve, no spaces, all lower case", "blue heron"),
]


@pytest.mark.parametrize(("message", "value"), CREDENTIALS)
def test_a_credential_in_prose_is_refused_and_never_shown(message, value):
    extraction = extract(message)
    assert extraction.candidates == []
    assert [r.reason for r in extraction.rejected] == [SECRET]
    assert value not in extraction.rejected[0].content
    assert "[redacted]" in extraction.rejected[0].content
    assert value not in redact(message)


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("The TV has a parental lock. Four digits: 2719.", "2719"),
        ("what's the locker code? -> 6612", "6612"),
        ("PIN for the card is 3092. sorry, typo, 3029.", "3029"),
        ("did the alarm code change from 6631 or is that still it", "6631"),
        ("The laptop password begins with Harbour7. The rest is Finch22.", "Finch22"),
        ("Shop alarm, in two bits. First bit 481. Second bit 27, then tick.", "481"),
        ("Grandad just swipes up and types 6193 to get in.", "6193"),
        ("sorry the alarm one i sent is wrong, it's not 4415 it's 4451.", "4451"),
        ("The study safe opens on 61 right, 22 left, 8 right.", "61 right, 22 left, 8 right"),
        ("Shed padlock is 724, paint is on the left shelf.", "724"),
        ("Customers join Bean_Guest and type latte-art-42 when it asks.", "latte-art-42"),
        ("The bank just texted 551708 to confirm the transfer.", "551708"),
        ("Rent goes to Mira, 41-17-09 and 55120384, by the 3rd.", "55120384"),
        ("For the first pet question the answer is Mr Whiskerton.", "Whiskerton"),
        ("so the wifi, ready? hash, k, 9, m, zed, capital P, 4, 4.", "k, 9, m"),
        ("The lab door code is B-217 and visitors look for a room called B-217.", "B-217"),
        (
            "the 12 words for my wallet are swift cedar noble acorn plume rather dizzy",
            "swift cedar",
        ),
        (
            "My first pet was a hamster called Bartholomew, that's my security answer.",
            "Bartholomew",
        ),
        ("It says 4929 1834 5521 0078 on the front and the three numbers are 316.", "316"),
        (
            "My PIN for the gym card — which I use twice a year at most, mostly in the hotel"
            " one up north where they never take tap, and which I always forget — is 5527.",
            "5527",
        ),
        ("Agent: can you confirm your phone banking passcode?\nMe: 41 88 30", "41 88 30"),
        # An aside between a strong cue and its value.
        ("My bank password, which I reuse far too often, is Lantern-Quill.", "Lantern-Quill"),
        ("her maiden name, the one the bank always asks for, is Thistlewood", "Thistlewood"),
        # A number in a sentence that holds a code goes too, whatever it looks like.
        ("The bike lock is 314, written 3.14 so it reads as a price.", "3.14"),
        ("The locker pin is 12.50 in the notebook, I mean 1250.", "12.50"),
        # A year that is the code rather than a date beside it.
        ("the alarm PIN is the year the house was built, 1987", "1987"),
        # A word with digits right after a strong cue, with no "is" between.
        ("Spotify: same email as always, pw walrus42", "walrus42"),
        # The turns of a dial, direction first.
        ("The gym locker opens with right 18, left 40, right 2.", "right 18, left 40"),
        # A word dictated with its case in a sentence that names a credential.
        ("The guest wifi: lower case marigold, then 77, no spaces.", "marigold"),
        ("router key is upper case word HARBOR and then 2 2", "HARBOR"),
        # Joins said as words, as a dictation app writes them.
        ("the sticky note on the monitor says Harbour dash Lantern dash 38", "Lantern dash 38"),
        # A value dictated with how it is written, before or after the description.
        ("the garage wifi password is all lower case, maple orchard road, no spaces", "orchard"),
        (
            "the archive drive's passphrase is a fox ran under the bridge, all in small letters",
            "fox ran under",
        ),
        # A sentence naming a credential, and its code in the next one.
        ("The gate code at Tom's is the year he retired. That's 2011, then the hash key.", "2011"),
        # A clause between the cue and "is", opened by a pronoun.
        ("the password the bank asks for on the phone is lighthouse", "lighthouse"),
        # What a credential was set to, past an initial in brackets.
        ("Set the locker PIN for cabinet 12 (R. Shah) to 550913 as agreed.", "550913"),
        # Security and recovery questions, and what was put in for them.
        ("Bank security question, name of my first street: Ellery Gardens", "Ellery Gardens"),
        ("Steam recovery question, first concert, I put Wembley", "Wembley"),
        ("the tool chest opens with thirty one, nine, forty four", "forty four"),
        ("my unlock pattern is a W starting bottom left", "W starting bottom left"),
        ("Key for the puzzle game from the bundle: 7KD2P-Q9XW4-M3T8L", "7KD2P-Q9XW4-M3T8L"),
        # Words ending in a number right after the cue, as said aloud.
        ("the shop wifi is HarbourCafe underscore staff password tidal mill 42", "tidal mill 42"),
        # A code answered after a question naming it, in a chat.
        ("Sam: what's the code for the bike shed?\nAlex: 6-2-9-1, same as before", "6-2-9-1"),
        (
            "Agent: what's the password on file? Caller: it's Copper Kettle, two words.",
            "Copper Kettle",
        ),
        # Security answers in capitals, or after "the bank asks".
        ("MY BANK SECURITY QUESTIONS: FIRST PET RUFUS, FIRST SCHOOL ST MARYS PRIMARY.", "ST MARYS"),
        ("If the bank asks for my first car, the answer is Blue Mini.", "Blue Mini"),
        # A dial's turns with no cue, in a sentence of another language.
        ("El candado del garaje: left to 14, right to 30, left to 6 y tira.", "right to 30"),
        ("snmp community string for the office printers is pr1nt-r0-5521", "pr1nt-r0-5521"),
        # Seed words numbered, or in numbered groups; a 25th word.
        (
            "cold wallet: 1. maple 2. rocket 3. silver 4. harbor 5. violin 6. candle 7. meadow"
            " 8. anchor 9. pepper 10. glacier 11. orbit 12. willow",
            "meadow",
        ),
        ("words 1-4: amber tiger lemon cloud\n13th word: Paper-Lantern", "Paper-Lantern"),
        ("the 1st, 3rd and 6th letters of the memorable word are R, T and E.", "R, T and E"),
        ("the card reader gave me 55102948 for the payment", "55102948"),
        # Quoted after a cue, blanks and punctuation included.
        ("vpn login: 'Blue;Moon.Rising!' (without the quotes)", "Blue;Moon.Rising!"),
        ("the studio wifi is 'Night Owl 7 ' with a space at the end", "Night Owl 7"),
        ("the bike lock is set to 3 8 1 for the summer", "3 8 1"),
        # Quoted anywhere in a sentence naming a credential outright.
        ("Yes, it's 'grey owl at noon' in small letters, that's the passphrase.", "grey owl"),
        ("the scanner one is my old plate plus a dollar: BX41KLM$", "BX41KLM$"),
        ("The shed opens with my mum's birthday written as six digits, 030561.", "030561"),
        ("Just use 4417 at the side entrance, the bell's broken.", "4417"),
        ("The key safe at Aunt Mo's cottage is 2206.", "2206"),
        ("door code is six 2 nine 9, press hard", "six 2 nine 9"),
        (
            "Proofs are at https://proofs.example.net/g/ellis?access=Maple-Rain-3310",
            "Maple-Rain-3310",
        ),
        ("Our code word for school pickup is Pelican.", "Pelican"),
        ("Le NIP de ma carte, c'est 5521.", "5521"),
        ("Nom de ma première école, for the bank question: Sainte-Anne", "Sainte-Anne"),
        ("Dad's card PIN is the year Mum was born, 1957, so he won't forget.", "1957"),
        ("The barn alarm is 3.8.1.6, then the green button.", "3.8.1.6"),
        ("My banking password is a whole sentence: Seagulls stole my chips in 2011!", "Seagulls"),
        ("Flat 4 bike store code is 2271C, capital C.", "2271C"),
        ("The key cabinet at the surgery is 7 times 11, so: 7711.", "7711"),
        ("Block C lobby access for residents this week: 9035#", "9035"),
        ("My Spotify pssword is tidepool42.", "tidepool42"),
        ("le mot de passe du wifi est baguette", "baguette"),
        ("The wifi at the allotment shed is marigold, all small letters.", "marigold"),
        ("Mijn laptop-wachtwoord is tulpenveld88, voor het geval dat.", "tulpenveld88"),
    ],
)
def test_a_credential_given_in_the_sentence_after_its_cue_is_never_shown(message, value):
    extraction = extract(message)
    shown = [c.content for c in extraction.candidates] + [r.content for r in extraction.rejected]
    assert not [text for text in shown if value in text]
    assert value not in redact(message)


def test_a_value_split_over_chat_lines_is_never_shown():
    extraction = extract(
        "[08:01] first half: Tr33Fr\n[08:01] second half: og_91\n[08:02] no spaces"
    )
    shown = [c.content for c in extraction.candidates] + [r.content for r in extraction.rejected]
    assert not [text for text in shown if "Tr33Fr" in text or "og_91" in text]


def test_digits_read_out_are_redacted_without_the_blank_after_them():
    [rejection] = extract("my card pin is two two seven one so don't lose it").rejected
    assert rejection.content == "my card pin is [redacted] so don't lose it"


def test_the_rest_of_a_message_with_a_credential_is_still_learned():
    extraction = extract("The door code is 2290#; I keep forgetting it. I keep a paper diary.")
    assert [c.content for c in extraction.candidates] == ["I keep a paper diary."]
    assert [r.content for r in extraction.rejected] == [
        "The door code is [redacted]; I keep forgetting it."
    ]


@pytest.mark.parametrize(
    "message",
    [
        "I keep my passwords in 1Password.",
        "The PIN pad at the office is broken.",
        "I rotate our API keys every 90 days.",
        "I use a YubiKey 5C for 2FA.",
        "Our staging database is Postgres 15 on port 5432.",
        "I changed my password in 2023.",
        "The gate code changes every month.",
        "My password manager is set to generate 24-character passwords by default.",
        "The password reset outage is tracked as ticket SEC-4821.",
        "I prefer ed25519 SSH keys.",
        "I keep API keys in GitHub secrets.",
        "My login for work uses SSO through Okta.",
        "My tablet passcode is six digits rather than four.",
        "The wifi password is printed on the back of the modem.",
        "The alarm code is the same for both doors.",
        "I bought a lifetime licence for my editor back in 2019.",
        "I keep the same password manager vault on my phone and my laptop.",
        "My generated passwords are 24 characters with symbols.",
        "The office alarm code is known by me and the manager.",
        "The recovery password is split between two directors.",
        "Guardo todas mis contraseñas en Bitwarden.",
        "We keep the wifi details for the holiday flat in the welcome folder.",
        "The IT helpdesk is on extension 5520 for password resets.",
        "Our building moved from keypad codes to phone entry in April 2024.",
        "Work passwords 1Password manages for the whole team.",
        "I reset my PIN in spring 2022 and have not forgotten it since.",
        "The garage has needed badge plus PIN since the 2024 upgrade.",
        "I always lock my screen with Win+L when I leave my desk.",
        "I learned the hard way that SMS codes do not arrive on a plane.",
        "I use passkeys wherever they're supported, starting with my bank.",
        "My passwords are all lower case, which I know is a bad habit.",
        "My work password expires every 60 days.",
        "I reset the alarm code to something new after the break-in.",
        "I write an em dash in every title.",
        "The bank told me they never ask for the whole memorable word.",
        "My first car was a rusty Fiat.",
        "Our card reader demo renders at 1920x1080.",
        "The lab moved to MATLAB R2024a with the new licence.",
        "The gate remote for the flats costs ₦15,000 to replace.",
        "The wifi at the cottage is patchy, so I work from the library on Fridays.",
        "Our old router only does the 2.4GHz band, so the camera sits on that.",
        "We split one Apple TV+ login between the three flats.",
        "My dad's security questions are set up with made-up answers kept in his notebook.",
        "The bank only unlocks a card after a call to the fraud line.",
        "Our minutes live at https://wiki.example.org/board/minutes for anyone to read.",
        "My PINs are usually four digits I can type without looking.",
        "I keep typing 'passowrd' when I mean password.",
        "The gate at the allotment has a Master Lock 1500 on it.",
        "La password del router è scritta sotto il modem.",
        "Door codes == Tomasz's job at the depot.",
        "Staff accounts | two-factor only | since 2022.",
        "Saya selalu memakai kunci keamanan untuk akun kantor.",
        "Our SOPS-encrypted keys live in the ops repo.",
        "The van threw OBD code P0171 after the service.",
        "The fire door is B12 on the floor plan.",
        "La clave del éxito es la paciencia, dice mi abuela.",
        "We had cod for tea and the kids loved it.",
        "The code for one to four guests is on the booking page.",
    ],
)
def test_a_statement_about_credentials_holding_none_is_learned(message):
    assert [c.content for c in extract(message).candidates] == [message]
