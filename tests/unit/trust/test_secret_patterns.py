"""The secret finder's tables (graphmem.trust.secret_patterns), one family of patterns at
a time: provider keys, private keys, passwords in URLs and on command lines, assigned
secrets, authorization headers, high-entropy strings, and what is never a secret
(placeholders, dummies, masks, references, expressions, public material).

Every provider shape has an example built here at run time from its prefix and seeded
random characters, so no secret-shaped literal sits in the repository. The finder finds
the example with the shape's kind and exact offsets, and does not find its masked
counterpart. A shape added to the table without an example fails
``test_every_provider_shape_has_an_example``.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

import pytest

from graphmem.trust.secret_patterns import (
    DUMMY_WORDS,
    GLUE_NEEDS_BOUNDARY,
    KEY_QUALIFIERS,
    NOT_SECRET_KEYS,
    NOT_SECRET_TOKENS,
    PASSWORD_WORDS,
    PUBLIC_STARTS,
    QUALIFIED_WORDS,
    SHAPES,
)
from graphmem.trust.secrets import SecretFinding, find_secrets

RANDOM = random.Random(32)
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = string.digits + "abcdef"
BASE64 = ALNUM + "+/"
BASE64URL = ALNUM + "-_"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def chars(alphabet: str, count: int) -> str:
    """Seeded random characters: the same on every run, fake by construction."""
    return "".join(RANDOM.choice(alphabet) for _ in range(count))


def digits(count: int) -> str:
    return chars(string.digits, count)


def only(text: str, kind: str, part: str) -> None:
    """The finder finds one secret in ``text``: ``part``, of ``kind``."""
    start = text.index(part)
    assert find_secrets(text) == [SecretFinding(kind, start, start + len(part))]


# --- provider keys and tokens -------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """A provider token: ``prefix + body`` is the secret; ``body`` is what masking hides."""

    kind: str
    prefix: str
    body: str
    before: str = "saw "
    after: str = " in the log"

    @property
    def text(self) -> str:
        return self.before + self.prefix + self.body + self.after

    @property
    def masked(self) -> str:
        return self.before + self.prefix + re.sub("[A-Za-z0-9]", "x", self.body) + self.after


TOKENS = [
    Token("aws access key", "AKIA", chars(UPPER_DIGITS, 16)),
    Token("github token", "ghp_", chars(ALNUM, 36)),
    Token("github token", "github_pat_", chars(ALNUM, 22) + "_" + chars(ALNUM, 59)),
    Token("gitlab token", "glpat-", chars(BASE64URL, 20)),
    Token("slack token", "xoxb-", f"{digits(12)}-{digits(13)}-{chars(ALNUM, 24)}"),
    Token("slack token", "xapp-", f"1-A{digits(10)}-{digits(13)}-{chars(HEX, 64)}"),
    Token(
        "slack webhook",
        "hooks.slack.com/services/",
        f"T{chars(UPPER_DIGITS, 8)}/B{chars(UPPER_DIGITS, 10)}/{chars(ALNUM, 24)}",
        before="alerts go to https://",
    ),
    Token(
        "discord webhook",
        f"discord.com/api/webhooks/{digits(18)}/",
        chars(BASE64URL, 68),
        before="alerts go to https://",
    ),
    Token("stripe key", "sk_live_", chars(ALNUM, 24)),
    Token("stripe key", "whsec_", chars(ALNUM, 32)),
    Token("anthropic key", "sk-ant-api03-", chars(BASE64URL, 93) + "AA"),
    Token("openai key", "sk-", chars(ALNUM, 48)),
    Token("google api key", "AIza", chars(BASE64URL, 35)),
    Token("google oauth secret", "GOCSPX-", chars(BASE64URL, 28)),
    Token("google oauth token", "ya29.", chars(BASE64URL, 120)),
    Token("google oauth token", "1//0", chars(ALNUM, 100)),
    Token("npm token", "npm_", chars(ALNUM, 36)),
    Token("pypi token", "pypi-AgE", chars(BASE64URL, 80)),
    Token("twilio key", "AC", chars(HEX, 32), before="Twilio account SID "),
    Token("sendgrid key", "SG.", chars(BASE64URL, 22) + "." + chars(BASE64URL, 43)),
    Token(
        "jwt",
        "eyJ",
        f"{chars(BASE64URL, 30)}.{chars(BASE64URL, 60)}.{chars(BASE64URL, 43)}",
    ),
    Token("mapbox token", "sk.eyJ", chars(BASE64URL, 60) + "." + chars(BASE64URL, 22)),
    Token(
        "azure connection string",
        "",
        chars(BASE64, 86) + "==",
        before="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=",
        after=";EndpointSuffix=core.windows.net",
    ),
    Token(
        "azure sas token",
        "",
        chars(BASE64, 43) + "%3D",
        before="https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=",
        after="",
    ),
    Token("azure client secret", chars(ALNUM, 3) + digits(1) + "Q~", chars(ALNUM, 34)),
    Token("huggingface token", "hf_", chars(ALNUM, 34)),
    Token("digitalocean token", "dop_v1_", chars(HEX, 64)),
    Token("shopify token", "shpat_", chars(HEX, 32)),
    Token("databricks token", "dapi", chars(HEX, 32)),
    Token("vault token", "hvs.", chars(BASE64URL, 90)),
    Token("terraform token", chars(ALNUM, 14) + ".atlasv1.", chars(BASE64URL, 67)),
    Token(
        "telegram bot token",
        digits(10) + ":AA",
        chars(BASE64URL, 33),
        before="https://api.telegram.org/bot",
        after="/getMe",
    ),
    Token(
        "discord token",
        f"M{chars(ALNUM, 25)}.{chars(BASE64URL, 6)}.",
        chars(ALNUM, 38),
    ),
    Token("linear key", "lin_api_", chars(ALNUM, 40)),
    Token("postman key", "PMAK-", chars(HEX, 24) + "-" + chars(HEX, 34)),
    Token("age secret key", "AGE-SECRET-KEY-1", chars(BECH32, 58)),
    Token("sentry token", "sntryu_", chars(HEX, 64)),
    Token("grafana token", "glc_", chars(BASE64, 80)),
    Token("grafana token", "glsa_", chars(ALNUM, 32) + "_" + chars(HEX, 8)),
    Token("groq key", "gsk_", chars(ALNUM, 52)),
    Token("xai key", "xai-", chars(ALNUM, 80)),
    Token("perplexity key", "pplx-", chars(ALNUM, 48)),
    Token("replicate token", "r8_", chars(ALNUM, 37)),
    Token("atlassian token", "ATATT3", chars(BASE64URL, 180)),
    Token("notion token", "ntn_", digits(11) + chars(ALNUM, 35)),
    Token("notion token", "secret_", chars(ALNUM, 43)),
    Token("supabase token", "sbp_", chars(HEX, 40)),
    Token("airtable token", f"pat{chars(ALNUM, 14)}.", chars(HEX, 64)),
    Token("figma token", "figd_", chars(BASE64URL, 40)),
    Token("heroku api key", "HRKU-", chars(BASE64URL, 60)),
    Token("mailgun key", "key-", chars(HEX, 32)),
    Token("square token", "sq0atp-", chars(BASE64URL, 22)),
    Token("doppler token", "dp.pt.", chars(ALNUM, 43)),
    Token("facebook token", "EAA", chars(ALNUM, 150)),
]


def test_every_provider_shape_has_a_source() -> None:
    assert [shape.kind for shape in SHAPES if not shape.source.strip()] == []


def test_every_provider_shape_has_an_example() -> None:
    uncovered = [
        (shape.kind, shape.pattern.pattern)
        for shape in SHAPES
        if not any(
            token.kind == shape.kind and shape.pattern.search(token.text) for token in TOKENS
        )
    ]
    assert uncovered == []


@pytest.mark.parametrize("token", TOKENS, ids=lambda token: f"{token.kind}:{token.prefix[:8]}")
def test_a_provider_token_is_found_with_its_kind(token: Token) -> None:
    only(token.text, token.kind, token.prefix + token.body)


@pytest.mark.parametrize("token", TOKENS, ids=lambda token: f"{token.kind}:{token.prefix[:8]}")
def test_a_masked_provider_token_is_not_found(token: Token) -> None:
    assert find_secrets(token.masked) == []


# --- private keys -------------------------------------------------------------------

KEY_BODY = "\n".join(chars(BASE64, 64) for _ in range(3)) + "\n" + chars(BASE64, 20) + "=="


@pytest.mark.parametrize(
    "label",
    [
        "RSA PRIVATE KEY",
        "EC PRIVATE KEY",
        "DSA PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "PRIVATE KEY",
        "PGP PRIVATE KEY BLOCK",
    ],
)
@pytest.mark.parametrize(
    "newline", ["\n", "\r\n", "\\r\\n", "\\n"], ids=["lf", "crlf", "escaped crlf", "escaped lf"]
)
def test_a_private_key_is_found_from_header_to_footer(label: str, newline: str) -> None:
    key = f"-----BEGIN {label}-----\n{KEY_BODY}\n-----END {label}-----".replace("\n", newline)
    only(f'{{"key": "{key}"}}', "private key", key)


def test_a_private_key_with_escaped_line_feeds_is_found() -> None:
    key = f"-----BEGIN PRIVATE KEY-----\n{KEY_BODY}\n-----END PRIVATE KEY-----"
    key = key.replace("\n", "\\n")
    only(f'{{"private_key": "{key}"}}', "private key", key)


def test_an_encrypted_pem_key_with_headers_is_found() -> None:
    key = (
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
        f"DEK-Info: AES-128-CBC,{chars(HEX, 32).upper()}\n\n{KEY_BODY}\n"
        "-----END RSA PRIVATE KEY-----"
    )
    only(f"deploy key:\n{key}\n", "private key", key)


@pytest.mark.parametrize(
    "text",
    [
        "the file starts with -----BEGIN OPENSSH PRIVATE KEY----- and then the key",
        f"-----BEGIN PUBLIC KEY-----\n{KEY_BODY}\n-----END PUBLIC KEY-----",
        f"-----BEGIN CERTIFICATE-----\n{KEY_BODY}\n-----END CERTIFICATE-----",
    ],
    ids=["no key material", "public key", "certificate"],
)
def test_pem_blocks_without_a_private_key_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []


# --- passwords in URLs and on command lines -----------------------------------------

PASSWORD = chars(ALNUM, 11) + "!"


@pytest.mark.parametrize(
    "url",
    [
        "postgres://app:{}@db.internal:5432/billing",
        "mysql://root:{}@127.0.0.1/shop",
        "mongodb+srv://ops:{}@cluster0.example.net/",
        "redis://:{}@cache:6379/0",
        "amqp://worker:{}@mq:5672/",
        "https://deploy:{}@git.example.com/acme/web.git",
    ],
)
@pytest.mark.parametrize("password", [PASSWORD, PASSWORD[:-1] + "%21"], ids=["plain", "encoded"])
def test_a_password_in_a_url_is_found(url: str, password: str) -> None:
    only(f"DATABASE_URL={url.format(password)}", "password in url", password)


@pytest.mark.parametrize(
    "password", ["password", "changeme", "${DB_PASSWORD}", "<password>", "***", "$PASS"]
)
def test_a_placeholder_or_dummy_password_in_a_url_is_not_found(password: str) -> None:
    assert find_secrets(f"postgres://app:{password}@db:5432/app") == []


@pytest.mark.parametrize(
    "command",
    [
        "curl -u admin:{} https://jenkins.example.io/api/json",
        "curl --user admin:{} https://jenkins.example.io/api/json",
        "mysql -u root -p{} billing",
        "mysqldump -h db -u root -p{} shop",
        "mariadb -u root -p{}",
        "redis-cli -h cache -a {} ping",
    ],
)
def test_a_password_on_a_command_line_is_found(command: str) -> None:
    only(command.format(PASSWORD), "password in command", PASSWORD)


@pytest.mark.parametrize(
    "command",
    [
        "mysql -u root -p billing",
        "mysql -u app -p$MYSQL_PWD -h db",
        "psql -h db -p 5432 -U app",
        "curl -u $USER:$TOKEN https://api.example.io",
        "redis-cli -a <password> ping",
    ],
)
def test_a_command_line_without_a_literal_password_is_not_found(command: str) -> None:
    assert find_secrets(command) == []


# --- assigned secrets ---------------------------------------------------------------

VALUE = chars(ALNUM, 9) + "7!"


def _assigned(name: str) -> str:
    return f'{name} = "{VALUE}"'


@pytest.mark.parametrize("word", sorted(PASSWORD_WORDS))
def test_each_password_word_names_a_password(word: str) -> None:
    only(_assigned(f"db_{word}"), "password assignment", VALUE)


@pytest.mark.parametrize(
    "name", ["app_secret", "auth_token", "credentials", "credential", "creds", "api_key"]
)
def test_the_other_secret_words_name_a_secret(name: str) -> None:
    only(_assigned(name), "secret assignment", VALUE)


@pytest.mark.parametrize("qualifier", KEY_QUALIFIERS)
def test_each_key_qualifier_makes_a_key_a_secret(qualifier: str) -> None:
    only(_assigned(f"{qualifier}_key"), "secret assignment", VALUE)


@pytest.mark.parametrize("qualifier", sorted(NOT_SECRET_KEYS))
def test_each_non_secret_qualifier_makes_an_upper_case_key_no_secret(qualifier: str) -> None:
    assert find_secrets(f"{qualifier.upper()}_KEY={VALUE}") == []


def test_any_other_upper_case_key_is_a_secret() -> None:
    only(f"ZQX_KEY={VALUE}", "secret assignment", VALUE)


@pytest.mark.parametrize("qualifier", NOT_SECRET_TOKENS)
def test_each_non_secret_qualifier_makes_a_token_no_credential(qualifier: str) -> None:
    assert find_secrets(_assigned(f"{qualifier}_token")) == []


@pytest.mark.parametrize("word", sorted(GLUE_NEEDS_BOUNDARY))
def test_a_password_word_glued_to_a_longer_word_is_not_one(word: str) -> None:
    assert find_secrets(_assigned(f"by{word}")) == []
    only(_assigned(f"db{word.capitalize()}"), "password assignment", VALUE)


@pytest.mark.parametrize("word", sorted(QUALIFIED_WORDS))
def test_a_word_that_needs_a_qualifier_alone_names_no_secret(word: str) -> None:
    assert find_secrets(_assigned(word)) == []


def test_a_40_character_aws_secret_is_found_as_such() -> None:
    secret = chars(BASE64, 40)
    only(f"aws_secret_access_key = {secret}", "aws secret key", secret)


# --- authorization headers ----------------------------------------------------------

CREDENTIAL = chars(ALNUM, 40)


@pytest.mark.parametrize(
    "scheme", ["Bearer", "Basic", "Token", "Bot", "Digest", "ApiKey", "sso-key"]
)
def test_each_authorization_scheme_is_found(scheme: str) -> None:
    only(
        f"curl -H 'Authorization: {scheme} {CREDENTIAL}' https://x.io",
        "authorization header",
        CREDENTIAL,
    )


def test_a_bare_bearer_credential_is_found_from_16_characters() -> None:
    only(f"use Bearer {CREDENTIAL[:16]} here", "authorization header", CREDENTIAL[:16])
    assert find_secrets(f"use Bearer {CREDENTIAL[:15]} here") == []


# --- high-entropy strings -----------------------------------------------------------

RANDOM_RUN = chars(ALNUM, 40)


def test_a_random_run_of_32_characters_is_a_high_entropy_string() -> None:
    only(f"the vendor portal issued {RANDOM_RUN} today", "high-entropy string", RANDOM_RUN)
    assert find_secrets(f"the vendor portal issued {RANDOM_RUN[:31]} today") == []


@pytest.mark.parametrize(
    "text",
    [
        *(f"blob: {start}{chars(BASE64, 60)}" for start in PUBLIC_STARTS),
        *(
            f"{before}{RANDOM_RUN}"
            for before in ("sha256:", "integrity ", "checksum: ", "etag=", "nonce=", "trace_id=")
        ),
        f'"integrity": "sha512-{chars(BASE64, 86)}=="',
        f"ipfs pin add Qm{chars(BASE58, 44)}",
        f"password: ENC[AES256_GCM,data:{RANDOM_RUN},iv:{chars(BASE64, 43)}=,tag:x]",
        f"publishableKey: pk_live_{RANDOM_RUN}",
        f"mapboxgl.accessToken = 'pk.eyJ{RANDOM_RUN}'",
    ],
)
def test_public_content_digests_ids_and_ciphertext_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []


# --- never a secret: dummies, masks, placeholders, references, expressions ----------


@pytest.mark.parametrize("word", sorted(DUMMY_WORDS))
def test_a_value_made_of_a_dummy_word_is_not_a_secret(word: str) -> None:
    assert find_secrets(f'password = "{word}_{word}_123"') == []


def test_the_same_value_made_of_another_word_is_a_secret() -> None:
    only('password = "zqj_zqj_123"', "password assignment", "zqj_zqj_123")


CORE = "Xk9q2wZ"
"""A value found when it stands alone; each form below hides it."""

MASKED = [
    f'password = "{CORE[:3]}{mask}{CORE[3:]}"' for mask in ("***", "xxx", "...", "…", "•", "###")
]
PLACEHOLDERS = [
    f'password = "{value}"'
    for value in (
        f"${{{CORE}}}",
        f"$({CORE})",
        f"{{{{{CORE}}}}}",
        f"<%{CORE}%>",
        f"#{{{CORE}}}",
        f"%({CORE})s",
        f"{{%{CORE}%}}",
        f"<{CORE}>",
        f"{{{CORE}}}",
        f"${CORE}",
        f"%{CORE}%",
        f"!{CORE}",
        f"*{CORE}",
        f"&{CORE}",
        f"@{CORE}",
        f":{CORE}",
        f"ENC[{CORE}]",
        f"ref+{CORE}",
        f"op://{CORE}",
        f"vault:{CORE}",
        f"env:{CORE}",
        f"file:{CORE}",
        f"arn:{CORE}",
        f"/{CORE}",
        f"./{CORE}",
        f"~/{CORE}",
        f"C:\\{CORE}",
    )
]
EXPRESSIONS = [
    f"password = {value}"
    for value in (
        f"settings.{CORE}",
        f"os.environ[{CORE}",
        f"get{CORE}(",
        f"cfg->{CORE}",
        f"Cfg::{CORE}",
        f"obj?.{CORE}",
    )
]


@pytest.mark.parametrize("text", [*MASKED, *PLACEHOLDERS, *EXPRESSIONS])
def test_a_masked_placeholder_reference_or_expression_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize("quote", ['"', ""], ids=["quoted", "bare"])
def test_the_value_the_forms_hide_is_a_secret_alone(quote: str) -> None:
    only(f"password = {quote}{CORE}{quote}", "password assignment", CORE)


# --- provider keys written with separators ------------------------------------------

SEPARABLE = [
    token
    for token in TOKENS
    if any(
        shape.separable and shape.pattern.fullmatch(token.prefix + token.body) for shape in SHAPES
    )
]
GROUPABLE = [token for token in SEPARABLE if re.fullmatch(r"\w+", token.body)]


def grouped(body: str, width: int, separator: str) -> str:
    return separator.join(body[at : at + width] for at in range(0, len(body), width))


def test_every_separable_shape_has_an_example() -> None:
    separable = {shape.kind for shape in SHAPES if shape.separable}
    assert separable == {token.kind for token in SEPARABLE}
    assert all(not shape.near and shape.lead is None for shape in SHAPES if shape.separable)


@pytest.mark.parametrize("separator", [" ", "-", "\u00a0", "\t"], ids=repr)
@pytest.mark.parametrize("token", GROUPABLE, ids=lambda token: token.prefix[:8])
def test_a_key_written_in_groups_is_found(token: Token, separator: str) -> None:
    key = token.prefix + separator + grouped(token.body, 4, separator)
    only(f"the key is {key} (rotated)", token.kind, key)


@pytest.mark.parametrize("width", [3, 5, 8])
def test_any_even_grouping_of_an_aws_key_is_found(width: int) -> None:
    key = "AKIA " + grouped(chars(UPPER_DIGITS, 16), width, " ")
    only(f"Deploy used {key}.", "aws access key", key)


@pytest.mark.parametrize("wrap", ["\n", "\r\n", "\n    ", "\\\n  "], ids=repr)
@pytest.mark.parametrize("token", SEPARABLE, ids=lambda token: token.prefix[:8])
def test_a_key_wrapped_over_lines_is_found(token: Token, wrap: str) -> None:
    secret = token.prefix + token.body
    middle = len(secret) // 2
    key = secret[:middle] + wrap + secret[middle:]
    only(f"log line: {key}\nnext: ok", token.kind, key)


def test_the_probes_grouped_aws_key_is_found() -> None:
    only("access key AKIA PIX6 EA6Q OM66 ZJOJ here", "aws access key", "AKIA PIX6 EA6Q OM66 ZJOJ")


@pytest.mark.parametrize(
    "text",
    [
        "Episode 123e4567-e89b-12d3-a456-426614174000 was merged.",
        "md5 d41d 8cd9 8f00 b204 e980 0998 ecf8 427e of the empty file",
        "Test card 4111 1111 1111 1111, then 1 234 567 890 rows.",
        "ISBN 978-3-16-148410-0 and MAC 00-1A-2B-3C-4D-5E",
        "AKIA keys are rotated each year, ASIA keys each hour.",
        "AKIA PIX6 EA6Q OM66 is too short for a key id",
        "AKIA PIX6-EA6Q OM66-ZJOJ mixes its separators",
        "AKIA PIX6 EA6QOM66 ZJOJ has uneven groups",
        "ghp_ tokens are forty characters and begin with ghp_ as documented here",
        "npm_ then the rest of the token goes here when you publish a new version",
        "prefix AKIA\nthe next line is prose about keys",
        "sk_live_ keys must never be committed; use sk_test_ keys in tests",
    ],
)
def test_separated_look_alikes_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []
