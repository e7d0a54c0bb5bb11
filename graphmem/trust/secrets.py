r"""Secrets in text written to memory, found by rule: what kind each is and where it is.

A write whose text holds one is stored as ``secret`` (:mod:`graphmem.trust.sensitivity`),
so it stays off the default recall, search, snapshot and export surfaces. A finding names
its kind and the offsets of the secret (``text[start:end]``), never the secret itself.

Found:

* **Provider keys and tokens**, by their published shapes: AWS access key ids, GitHub,
  GitLab, Slack (tokens and webhooks), Stripe (``sk_live_``, ``rk_live_``, ``sk_test_``,
  ``whsec_``), OpenAI, Anthropic, Google (API keys, OAuth client secrets and tokens),
  npm, PyPI, Twilio (``AC``/``SK`` + 32 hex, only with "twilio" within 200 characters),
  SendGrid, JWTs, Azure (connection-string ``AccountKey=``, SAS ``sig=``, client
  secrets), Hugging Face, DigitalOcean, Shopify, Databricks, Vault, Terraform Cloud,
  Telegram, Discord, Linear, Postman, age, Sentry, Grafana, Groq, xAI, Perplexity,
  Replicate, Atlassian, Notion, Supabase, Airtable, Figma, Heroku, Mailgun, Square,
  Doppler, Facebook and Mapbox. A shape-valid key is found even when it is a
  documentation sample (``AKIAIOSFODNN7EXAMPLE``): a sample cannot be told from a live
  key by its form, and hiding a sample costs little. A body that is masked or made of
  dummy words (``ghp_xxxx...``, ``xoxb-your-token``) is not.
* **Private keys**: a ``-----BEGIN ... PRIVATE KEY-----`` header (RSA, EC, DSA, OPENSSH,
  ENCRYPTED, PGP ``PRIVATE KEY BLOCK``) followed by at least 16 characters of key
  material (newlines may be written ``\n``). The span runs to the ``-----END`` line.
* **Passwords in URLs** (``scheme://user:password@host``, the password URL-decoded) and
  on command lines (``curl -u user:password``, ``--user user:password``).
* **Assigned secrets**: a value given to a key whose name ends in a secret word
  (password, passwd, passphrase, passcode, pwd, pw, secret, token, credentials, creds;
  ``pass`` after a qualifier, as in ``DB_PASS``; ``key`` after a qualifier such as api,
  secret, private, access, signing or client, or in an upper-case ``*_KEY`` variable):
  ``password = "..."``, ``DB_PASSWORD=...``, ``api_key: ...``, ``"token": "..."``,
  ``export GITHUB_TOKEN=...``, ``password: str = "..."``, ``<password>...</password>``,
  ``--password ...``, ``.netrc`` ``login ... password ...``, prose "the password is
  ...", a quoted value after a space ("with password 'x'"), and a long random or hex
  value after a space ("the API token 8f14e45f..."). There any value counts that is no
  placeholder or dummy, hex and UUIDs included (Heroku keys are UUIDs). Kinds:
  "password assignment" for the password words, "aws secret key" for a 40-character
  AWS secret, "secret assignment" for the rest.
* **Authorization headers**: ``Authorization: Bearer|Basic|Token ...`` and a bare
  ``Bearer ...`` of 16 characters or more.
* **High-entropy strings**: a run of base64/base64url characters at least 32 long that
  has upper and lower case and a digit (or base64's ``+``), at least 3.5 bits of Shannon
  entropy per character (random base62 of 32 characters measures 3.8 at the least, 4.5
  typically), and does not read as words: the mean length of its chunks (case runs,
  digit runs, hex pieces) is under 3.3 (random text: 1.9, and 3.2 at the 99.9th
  percentile for 32 characters; identifiers and paths: 3.5 to 5.5). A path is judged
  piece by piece, so only a random piece of 32 or more counts (a capability URL's id
  does). Base64 of up to 8 KB that decodes to text is judged by that text instead: it
  is a secret only if the text holds one (a base64-encoded private key, as in a
  kubeconfig's ``client-key-data``, is found as a private key; base64 of JSON is not).

Deliberately not found:

* Placeholders: ``<password>``, ``${DB_PASSWORD}``, ``$PASS``, ``{{ vault_pw }}``,
  ``%(pw)s``, ``{password}``, ``os.environ["PW"]``, ``settings.API_KEY``, YAML tags and
  aliases, SQL parameters, ``ENC[...]`` (sops ciphertext), references (``op://``,
  ``vault:``, ``arn:``, ``file:``, paths).
* Well-known dummy values: any value made only of words such as changeme, password,
  secret, example, test, dummy, your, here, admin, postgres, guest, foo, none, true
  (with at most 4 digits, so ``password123`` and ``admin123`` too), masked or elided
  values (``***``, ``xxx``, ``...``, ``•``), and values of fewer than 3 distinct
  characters.
* Mentions without a value ("the password is stored in Vault", "rotate the API key").
* Values too short (under 6 characters), without a letter, or with whitespace; a bare
  (unquoted) value needs a digit or a symbol such as ``!@#$%^&*+=?~``, since a bare word
  is as likely a variable name or a YAML word as a password.
* Digests and ids: pure hex of any length (git SHAs, sha256, UUIDs, Ethereum addresses)
  unless assigned to a secret name; anything after ``sha256:``, ``sha512-``, ``h1:``,
  ``integrity``, ``checksum``, ``hash`` and the like; request, trace and correlation ids
  and nonces; docker ``@sha256:`` digests; IPFS ids.
* Public material: SSH public keys, certificates and public keys in PEM blocks, base64
  of images and archives (``data:...;base64,`` and PNG/JPEG/GIF/PDF/zip/gzip headers),
  Stripe and Mapbox publishable keys (``pk_live_``, ``pk.eyJ``).
* Single-dash flags other than ``-u`` (``-p secret``, ``redis-cli -a``), positional
  arguments, ``.pgpass`` lines, PINs and other digit-only values, password hashes as
  such, and session cookies unless they are high-entropy strings. Base64 of binary data
  (a protobuf fixture, say) looks like a key and is found as a high-entropy string.

Pure and deterministic; every pattern is compiled once, repetition is bounded or cannot
backtrack, and patterns begin with a literal where they can, so a text is scanned in
linear time (a megabyte of text in well under a second; 0.1 ms for a 300-character note).
"""

from __future__ import annotations

import binascii
import math
import re
import string
from base64 import b64decode
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote


@dataclass(frozen=True)
class SecretFinding:
    """One secret in a text: its kind and where it is (``text[start:end]``).

    Attributes:
        kind: A stable short name such as "aws access key" or "password assignment".
        start: The offset of the secret's first character.
        end: The offset just past its last character.
    """

    kind: str
    start: int
    end: int


def find_secrets(text: str) -> list[SecretFinding]:
    """Every secret in ``text``, ordered by start; findings never overlap.

    Where detectors agree on a span the most specific kind wins: private key, then a
    provider's key, then a password in a URL, an authorization header, an assignment,
    and last a high-entropy string.

    Args:
        text: Any text.

    Returns:
        The findings, each with its kind and offsets; empty when there is no secret.
    """
    return _without_overlaps(_candidates(text))


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds at least one secret (stops at the first one found)."""
    return next(_candidates(text), None) is not None


_Candidate = tuple[int, int, int, str]
"""(priority, start, end, kind); a lower priority number is more specific."""


def _candidates(text: str, decode: bool = True) -> Iterator[_Candidate]:
    """Every finding, overlaps included; ``decode`` also reads base64 of text."""
    lower = _same_length_lower(text)
    yield from _private_keys(text)
    yield from _provider_tokens(text)
    yield from _url_passwords(text)
    yield from _command_line_passwords(text)
    yield from _authorization_headers(text, lower)
    yield from _assignments(text, lower)
    yield from _high_entropy(text, decode)


def _without_overlaps(candidates: Iterator[_Candidate]) -> list[SecretFinding]:
    starts: list[int] = []
    ends: list[int] = []
    kept: list[SecretFinding] = []
    for _, start, end, kind in sorted(candidates, key=lambda c: (c[0], c[1], -c[2], c[3])):
        at = bisect_right(starts, start)
        if (at and ends[at - 1] > start) or (at < len(starts) and starts[at] < end):
            continue
        starts.insert(at, start)
        ends.insert(at, end)
        kept.insert(at, SecretFinding(kind, start, end))
    return kept


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _same_length_lower(text: str) -> str:
    """``text`` in lower case with every offset kept (``str.lower`` may lengthen it)."""
    lower = text.lower()
    return lower if len(lower) == len(text) else text.translate(_ASCII_LOWER)


# --- what a value must not be -------------------------------------------------------

MIN_SECRET_CHARS = 6
"""A shorter value is not taken for a password or token."""
MAX_VALUE_CHARS = 300
"""Values are read at most this far (a longer secret still shows by its first part)."""
MAX_DUMMY_DIGITS = 4
"""A value of dummy words is still a dummy with this many digits (``password123``)."""
MAX_DUMMY_CHARS = 64
"""Longer values are never taken for dummies."""
MIN_SPACED_CHARS = 16
"""A value after a bare space ("the token a8F3...") must be at least this long."""
MIN_DISTINCT_CHARS = 5
"""A provider token with fewer distinct characters is a filler (``ghp_000...``)."""

_DUMMY_WORDS = frozenset(
    """
    password passwords passwd pass pwd passphrase passcode secret secrets token tokens
    key keys api apikey access private auth credential credentials creds login username
    user admin administrator root guest default demo example examples sample test tests
    testing dummy fake mock placeholder your my our the here goes put insert enter
    replace change changeme replaceme value string str text none null nil undefined
    empty blank true false yes foo bar baz qux quux todo tbd fixme redacted hidden
    masked removed omitted secure insecure super top very strong weak random some new
    old real actual valid invalid wrong bad good abc abcd abcdef qwerty letmein foobar
    foobared hello world postgres postgresql mysql mariadb redis mongo mongodb rabbitmq
    dev development local localhost prod production staging stage app application
    service database env environment required optional include omit same origin
    anonymous bearer basic header cookie session query body form type int uint float
    double bool boolean number object char bytes sha aes base hex utf ascii generated
    generic client server set unset missing unknown xyz
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
_LONGEST_DUMMY = max(map(len, _DUMMY_WORDS))
_LETTER_RUN = re.compile(r"[a-z]+")
_MASK = re.compile(r"\*\*\*|xxx|\.\.\.|…|•|###", re.IGNORECASE)
_PLACEHOLDER = re.compile(
    r"\$\{|\$\(|\{\{|\}\}|<%|%>|\#\{|%\(|\{%|<[^<>]*>|\{[\w.]*\}"
    r"|\A(?:\$[A-Za-z_]|%\w+%\Z|[!*&<({\[]|[@:][A-Za-z_]\w*\Z|ENC\[|ref\+"
    r"|(?:op|vault|sm|akv|gsm|awssm|azkv|k8s)://"
    r"|(?:vault|env|file|ssm|secretsmanager|keyvault|arn|awskms|gcpkms):"
    r"|/|\.{1,2}/|~[/\\]|[A-Za-z]:\\)",
    re.IGNORECASE,
)
"""Template syntax anywhere, or a start that makes the value a reference, not a secret."""
_SPACE = re.compile(r"\s")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"[0-9]")
_SYMBOL = re.compile(r"[!@#$%^&*+=?~|]")
_CODE = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->|\?\.)[A-Za-z_$][\w$]*)*(?:\(|\[|\Z)")
"""A bare value that is an expression: ``settings.API_KEY``, ``getpass(``, ``os.environ[``."""


def _is_dummy(value: str) -> bool:
    """Whether the value is made only of dummy words, separators and a few digits."""
    lower = value.lower()
    if len(lower) > MAX_DUMMY_CHARS or len(_DIGIT.findall(lower)) > MAX_DUMMY_DIGITS:
        return False
    runs = _LETTER_RUN.findall(lower)
    return bool(runs) and all(_splits_into_dummy_words(run) for run in runs)


def _splits_into_dummy_words(run: str) -> bool:
    reachable = [True] + [False] * len(run)
    for begin in range(len(run)):
        if reachable[begin]:
            for end in range(begin + 2, min(len(run), begin + _LONGEST_DUMMY) + 1):
                reachable[end] = reachable[end] or run[begin:end] in _DUMMY_WORDS
    return reachable[-1]


def _is_filler(value: str, min_distinct: int = 3) -> bool:
    """A masked or elided value, one of too few distinct characters, or a dummy."""
    return bool(_MASK.search(value) or len(set(value.lower())) < min_distinct or _is_dummy(value))


def _is_fake(value: str) -> bool:
    """A placeholder or reference, or a filler."""
    return bool(_PLACEHOLDER.search(value)) or _is_filler(value)


def _literal_ok(value: str) -> bool:
    """Whether a value written literally (in a URL, quoted, after a flag) is a secret."""
    return (
        len(value) >= MIN_SECRET_CHARS
        and not _SPACE.search(value)
        and bool(_LETTER.search(value))
        and not value.startswith(_PUBLISHABLE_KEYS)
        and not _is_fake(value)
    )


_PUBLISHABLE_KEYS = ("pk_live_", "pk_test_", "pk.eyJ")
"""Stripe and Mapbox keys made to be shipped in web pages."""


def _strong(value: str) -> bool:
    """A letter and a digit or symbol: how a bare word differs from a password."""
    return bool(_LETTER.search(value) and (_DIGIT.search(value) or _SYMBOL.search(value)))


def _quoted_ok(value: str) -> bool:
    """A quoted value: strong, or a single word of 8 letters or more that is no dummy."""
    return (_strong(value) or (len(value) >= 8 and value.isalpha())) and _literal_ok(value)


def _bare_ok(value: str) -> bool:
    """An unquoted value: strong and not an expression."""
    return _strong(value) and not _is_expression(value) and _literal_ok(value)


def _spaced_ok(value: str) -> bool:
    """A value after a bare space: long, strong, and random or hex (not a name or path)."""
    return (
        len(value) >= MIN_SPACED_CHARS
        and _strong(value)
        and not _is_expression(value)
        and (bool(_HEX_PIECE.fullmatch(value.replace("-", ""))) or not _reads_as_words(value))
        and _literal_ok(value)
    )


def _is_expression(value: str) -> bool:
    match = _CODE.match(value)
    return match is not None and any(mark in match.group() for mark in ".([:>")


# --- randomness ---------------------------------------------------------------------

MIN_ENTROPY_CHARS = 32
"""The shortest run of base64 characters judged by its randomness alone."""
MIN_ENTROPY_BITS = 3.5
"""Shannon entropy per character; random base62 of 32 characters measures at least 3.8."""
WORDY_CHUNK_MEAN = 3.3
"""A mean chunk length from here up reads as words (identifiers, paths), not noise."""

_CHUNK = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_PIECE_SEPARATORS = re.compile(r"[-_/+=.~]+")
_HEX_PIECE = re.compile(r"(?:0x)?[0-9a-fA-F]{6,}")
_ALNUM = frozenset(string.ascii_letters + string.digits)


def _chunk_mean(token: str) -> float:
    """The mean length of the token's chunks; a hex piece with a digit is one chunk."""
    lengths: list[int] = []
    for piece in _PIECE_SEPARATORS.split(token):
        if _HEX_PIECE.fullmatch(piece) and _DIGIT.search(piece):
            lengths.append(len(piece))
        else:
            lengths += [len(chunk) for chunk in _CHUNK.findall(piece)]
    return sum(lengths) / len(lengths) if lengths else 0.0


def _entropy(token: str) -> float:
    counts = Counter(token).values()
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts)


def _reads_as_words(token: str) -> bool:
    return _chunk_mean(token) >= WORDY_CHUNK_MEAN


def _bounded(text: str, start: int, end: int) -> bool:
    """No letter or digit touches the span on either side."""
    return (start == 0 or text[start - 1] not in _ALNUM) and (
        end == len(text) or text[end] not in _ALNUM
    )


# --- provider keys and tokens -------------------------------------------------------

_Span = tuple[int, int]
_Check = Callable[[str, re.Match[str]], _Span | None]


def _token(text: str, match: re.Match[str]) -> _Span | None:
    """The whole match, if bounded and its random part (group ``b``) is no filler."""
    start, end = match.span()
    if not _bounded(text, start, end) or _is_filler(match.group("b"), MIN_DISTINCT_CHARS):
        return None
    return start, end


def _random_token(text: str, match: re.Match[str]) -> _Span | None:
    """A token whose prefix is common in ordinary text: its body must look random."""
    return _token(text, match) if _random_body(match.group("b")) else None


def _random_body(body: str) -> bool:
    return bool(_LETTER.search(body)) and not _reads_as_words(body)


def _slack(text: str, match: re.Match[str]) -> _Span | None:
    return _token(text, match) if len(_DIGIT.findall(match.group("b"))) >= 8 else None


def _near(word: str, reach: int) -> _Check:
    """A check that also wants ``word`` within ``reach`` characters of the match."""

    def check(text: str, match: re.Match[str]) -> _Span | None:
        window = text[max(0, match.start() - reach) : match.end() + reach].lower()
        return _token(text, match) if word in window else None

    return check


def _value_only(text: str, match: re.Match[str]) -> _Span | None:
    """The key after ``AccountKey=`` and the like: the span is the value."""
    if match.start() and text[match.start() - 1] in _ALNUM:
        return None
    return None if _is_filler(match.group("b"), MIN_DISTINCT_CHARS) else match.span("b")


def _sas_signature(text: str, match: re.Match[str]) -> _Span | None:
    before = text[max(0, match.start() - 600) : match.start()]
    if not before.endswith(("?", "&")) or "sv=" not in before:
        return None
    return None if _is_filler(match.group("b"), MIN_DISTINCT_CHARS) else match.span("b")


def _led_by(lead: re.Pattern[str], *, random: bool = False) -> _Check:
    """A check for a match anchored on its middle: ``lead`` must end just before it.

    ``lead`` holds its own left boundary (a lookbehind); with ``random`` the body must
    also look random (the shape is common in ordinary text).
    """

    def check(text: str, match: re.Match[str]) -> _Span | None:
        found = lead.search(text, max(0, match.start() - 32), match.start())
        body, end = match.group("b"), match.end()
        if found is None or (random and not _random_body(body)):
            return None
        if (end < len(text) and text[end] in _ALNUM) or _is_filler(body, MIN_DISTINCT_CHARS):
            return None
        return found.start(), end

    return check


@dataclass(frozen=True)
class _Shape:
    kind: str
    hints: tuple[str, ...]
    """Literals of which every match holds one: the pattern runs only if one is present
    (no hints: it always runs)."""
    pattern: re.Pattern[str]
    check: _Check = _token


def _shape(kind: str, hints: str, pattern: str, check: _Check = _token) -> _Shape:
    return _Shape(kind, tuple(hints.split()), re.compile(pattern), check)


_NOT_AFTER = "(?<![A-Za-z0-9_-]{})"
"""A lookbehind put after a literal prefix (so the regex engine still scans for the
literal): no token character before it. Without it a run of prefixes backtracks."""

_SHAPES = (
    _shape("aws access key", "AKIA ASIA ABIA ACCA", r"(?:AKIA|ASIA|ABIA|ACCA)(?P<b>[A-Z0-9]{16})"),
    _shape("github token", "ghp_ gho_ ghu_ ghs_ ghr_", r"gh[pousr]_(?P<b>[A-Za-z0-9]{36,251})"),
    _shape("github token", "github_pat_", r"github_pat_(?P<b>[A-Za-z0-9_]{60,251})"),
    _shape(
        "gitlab token",
        "glpat- gldt- glrt- glptt- glsoat- glcbt- glft- glimt-",
        r"gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt)-(?P<b>[A-Za-z0-9_.-]{20,255})",
    ),
    _shape("slack token", "xox", r"xox[abposre]-(?P<b>[A-Za-z0-9-]{10,250})", _slack),
    _shape("slack token", "xapp-", r"xapp-(?P<b>[0-9]-[A-Za-z0-9-]{20,250})", _slack),
    _shape(
        "slack webhook",
        "hooks.slack.com/",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<b>[A-Za-z0-9/_-]{20,300})",
    ),
    _shape(
        "discord webhook",
        "/api/webhooks/",
        r"discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/(?P<b>[A-Za-z0-9_-]{50,100})",
    ),
    _shape("stripe key", "k_live_ k_test_", r"[sr]k_(?:live|test)_(?P<b>[A-Za-z0-9]{16,247})"),
    _shape("stripe key", "whsec_", r"whsec_(?P<b>[A-Za-z0-9+/=]{24,100})"),
    _shape("anthropic key", "sk-ant-", r"sk-ant-(?P<b>[A-Za-z0-9_-]{32,300})"),
    _shape("openai key", "sk-", r"sk-(?P<b>[A-Za-z0-9_-]{20,300})", _random_token),
    _shape("google api key", "AIza", r"AIza(?P<b>[0-9A-Za-z_-]{35})"),
    _shape("google oauth secret", "GOCSPX-", r"GOCSPX-(?P<b>[A-Za-z0-9_-]{28})"),
    _shape("google oauth token", "ya29.", r"ya29\.(?P<b>[0-9A-Za-z_-]{30,2048})"),
    _shape("google oauth token", "1//0", r"1//0(?P<b>[0-9A-Za-z_-]{30,512})", _random_token),
    _shape("npm token", "npm_", r"npm_(?P<b>[A-Za-z0-9]{36})"),
    _shape("pypi token", "pypi-AgE", r"pypi-(?P<b>AgE[A-Za-z0-9_-]{50,1000})"),
    _shape(
        "twilio key",
        "twilio Twilio TWILIO",
        r"(?:AC|SK)(?P<b>[0-9a-fA-F]{32})",
        _near("twilio", 200),
    ),
    _shape("sendgrid key", "SG.", r"SG\.(?P<b>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"),
    _shape(
        "jwt",
        "eyJ",
        r"eyJ"
        + _NOT_AFTER.format("eyJ")
        + r"(?P<b>[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096})",
    ),
    _shape(
        "mapbox token",
        "sk.eyJ",
        r"sk\.eyJ"
        + _NOT_AFTER.format(r"sk\.eyJ")
        + r"(?P<b>[A-Za-z0-9_-]{20,300}\.[A-Za-z0-9_-]{20,100})",
    ),
    _shape(
        "azure connection string",
        "AccountKey= SharedAccessKey=",
        r"(?:AccountKey|SharedAccessKey)=(?P<b>[A-Za-z0-9+/]{20,200}={0,2})",
        _value_only,
    ),
    _shape(
        "azure sas token",
        "sig=",
        r"sig=(?P<b>[A-Za-z0-9%+/]{30,200}(?:%3D|=){0,2})",
        _sas_signature,
    ),
    _shape(
        "azure client secret",
        "Q~",
        r"Q~(?P<b>[A-Za-z0-9_~.-]{31,34})",
        _led_by(re.compile(r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]\Z")),
    ),
    _shape("huggingface token", "hf_", r"hf_(?P<b>[A-Za-z0-9]{34,40})", _random_token),
    _shape("digitalocean token", "_v1_", r"do[opr]_v1_(?P<b>[a-f0-9]{64})"),
    _shape("shopify token", "shp", r"shp(?:at|ca|pa|ss)_(?P<b>[a-fA-F0-9]{32})"),
    _shape("databricks token", "dapi", r"dapi(?P<b>[a-f0-9]{32})(?:-[0-9])?"),
    _shape("vault token", "hvs. hvb. hvr.", r"hv[sbr]\.(?P<b>[A-Za-z0-9_-]{24,300})"),
    _shape(
        "terraform token",
        ".atlasv1.",
        r"\.atlasv1\.(?P<b>[A-Za-z0-9_=-]{60,100})",
        _led_by(re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\Z")),
    ),
    _shape(
        "telegram bot token",
        ":AA",
        r":AA(?P<b>[A-Za-z0-9_-]{33})",
        _led_by(re.compile(r"(?:(?<=bot)|(?<![A-Za-z0-9]))[0-9]{8,10}\Z")),
    ),
    _shape(
        "discord token",
        "",
        r"\.[A-Za-z0-9_-]{6}\.(?P<b>[A-Za-z0-9_-]{27,40})",
        _led_by(re.compile(r"(?<![A-Za-z0-9])[MNO][A-Za-z0-9]{23,27}\Z"), random=True),
    ),
    _shape("linear key", "lin_", r"lin_(?:api|oauth)_(?P<b>[A-Za-z0-9]{40})"),
    _shape("postman key", "PMAK-", r"PMAK-(?P<b>[a-f0-9]{24}-[a-f0-9]{34})"),
    _shape("age secret key", "AGE-SECRET-KEY-1", r"AGE-SECRET-KEY-1(?P<b>[0-9A-Z]{58})"),
    _shape("sentry token", "sntry", r"sntry[su]_(?P<b>[A-Za-z0-9_+/=-]{40,400})"),
    _shape("grafana token", "glc_", r"glc_(?P<b>[A-Za-z0-9_+/=-]{32,400})"),
    _shape("grafana token", "glsa_", r"glsa_(?P<b>[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})"),
    _shape("groq key", "gsk_", r"gsk_(?P<b>[A-Za-z0-9]{48,60})"),
    _shape("xai key", "xai-", r"xai-(?P<b>[A-Za-z0-9]{60,100})"),
    _shape("perplexity key", "pplx-", r"pplx-(?P<b>[A-Za-z0-9]{40,60})"),
    _shape("replicate token", "r8_", r"r8_(?P<b>[A-Za-z0-9]{37})"),
    _shape("atlassian token", "ATATT3", r"ATATT3(?P<b>[A-Za-z0-9_=-]{150,250})"),
    _shape("notion token", "ntn_", r"ntn_(?P<b>[A-Za-z0-9]{40,50})"),
    _shape("notion token", "secret_", r"secret_(?P<b>[A-Za-z0-9]{43})", _random_token),
    _shape("supabase token", "sbp_", r"sbp_(?P<b>[a-f0-9]{40})"),
    _shape("airtable token", "pat", r"pat[A-Za-z0-9]{14}\.(?P<b>[a-f0-9]{64})"),
    _shape("figma token", "figd_", r"figd_(?P<b>[A-Za-z0-9_-]{40,50})"),
    _shape("heroku api key", "HRKU-", r"HRKU-(?P<b>[A-Za-z0-9_-]{40,80})"),
    _shape("mailgun key", "key-", r"key-(?P<b>[0-9a-f]{32})"),
    _shape("square token", "sq0atp- sq0csp-", r"sq0(?:atp|csp)-(?P<b>[0-9A-Za-z_-]{22,60})"),
    _shape(
        "doppler token",
        "dp.",
        r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?P<b>[A-Za-z0-9]{40,44})",
    ),
    _shape("facebook token", "EAA", r"EAA(?P<b>[A-Za-z0-9]{100,300})", _random_token),
)
"""Each provider's shape, most specific first; ``b`` is the part that must look random."""


_HINTS = frozenset(hint for shape in _SHAPES for hint in shape.hints)
_ANY_HINT = re.compile("|".join(re.escape(hint) for hint in sorted(_HINTS)))
"""One pass that says whether any hint is there (most texts hold none)."""


def _provider_tokens(text: str) -> Iterator[_Candidate]:
    shapes = _HINTLESS_SHAPES
    if _ANY_HINT.search(text):
        present = {hint for hint in _HINTS if hint in text}
        shapes = tuple(
            (priority, shape)
            for priority, shape in _RANKED_SHAPES
            if not shape.hints or not present.isdisjoint(shape.hints)
        )
    for priority, shape in shapes:
        for match in shape.pattern.finditer(text):
            span = shape.check(text, match)
            if span is not None:
                yield priority, span[0], span[1], shape.kind


# --- private keys -------------------------------------------------------------------

MAX_KEY_CHARS = 65_536
"""How far past a private-key header its ``-----END`` line is looked for."""

_PRIVATE_KEY = re.compile(r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----")
_LINE_BREAK = r"(?:[ \t]*(?:\r?\n|\\r?\\n))"
"""A line break, or one written as ``\\n`` inside a JSON or shell string."""
_KEY_MATERIAL = re.compile(
    rf"{_LINE_BREAK}{{0,4}}"
    rf"(?:[A-Za-z][A-Za-z-]{{0,30}}:[^\r\n\\]{{0,200}}{_LINE_BREAK}{{1,4}}){{0,6}}"  # Proc-Type
    r"[ \t]*[A-Za-z0-9+/=]{16}"
)
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{1,60}-----")
_PEM_BEGIN = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,60})-----")


def _private_keys(text: str) -> Iterator[_Candidate]:
    for header in _PRIVATE_KEY.finditer(text):
        material = _KEY_MATERIAL.match(text, header.end())
        if material is None:
            continue
        footer = _PEM_END.search(text, material.end(), material.end() + MAX_KEY_CHARS)
        end = footer.end() if footer else material.end()
        yield _PRIVATE_KEY_PRIORITY, header.start(), end, "private key"


# --- passwords in URLs --------------------------------------------------------------

_URL_USERINFO = re.compile(
    r"://(?P<user>[^\s:/?#@\[\]\"'<>]{0,128}):(?P<password>[^\s/?#@\"'<>\\]{1,256})@"
)


def _url_passwords(text: str) -> Iterator[_Candidate]:
    for match in _URL_USERINFO.finditer(text):
        if match.start() == 0 or text[match.start() - 1] not in _ALNUM:
            continue  # no scheme before ://
        if _literal_ok(unquote(match.group("password"))):
            yield _URL_PRIORITY, *match.span("password"), "password in url"


_USER_FLAG = re.compile(
    r"-(?:u|-user)[ \t=]{1,4}[\"']?[^\s:\"'/@$]{1,64}:(?P<password>[^\s\"']{1,128})"
)
"""``curl -u user:password``, ``--user user:password``."""
_CLIENT_FLAG = re.compile(
    r"\b(?:mysql|mysqladmin|mysqldump|mariadb)\b[^\n|;&]{0,120}?[ \t]-p"
    r"(?P<password>[^\s\"']{3,128})"
    r"|\bredis-cli\b[^\n|;&]{0,120}?[ \t]-a[ \t]+[\"']?(?P<auth>[^\s\"']{3,128})"
)
"""Database clients that take the password glued to ``-p`` (MySQL) or after ``-a``
(redis-cli)."""


def _command_line_passwords(text: str) -> Iterator[_Candidate]:
    for match in _USER_FLAG.finditer(text):
        if match.start() and text[match.start() - 1] not in " \t\"'`(":
            continue
        if _quoted_ok(match.group("password")):
            yield _URL_PRIORITY, *match.span("password"), "password in command"
    for match in _CLIENT_FLAG.finditer(text):
        group = "password" if match.group("password") is not None else "auth"
        if _quoted_ok(match.group(group)):
            yield _URL_PRIORITY, *match.span(group), "password in command"


# --- authorization headers ----------------------------------------------------------

_AUTHORIZATION = re.compile(
    r"authorization(?P<header>[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|token|bot|digest|apikey|sso-key)[ \t]+)?)"
    r"|bearer[ \t]+"
)
"""An Authorization header or a bare Bearer, in lower-cased text."""
_CREDENTIAL = re.compile(r"[A-Za-z0-9._~+/=:-]{8,2048}")
MIN_BARE_BEARER_CHARS = 16
"""A ``Bearer`` credential outside an Authorization header must be at least this long."""


def _authorization_headers(text: str, lower: str) -> Iterator[_Candidate]:
    at = 0
    while (match := _AUTHORIZATION.search(lower, at)) is not None:
        credential = _CREDENTIAL.match(text, match.end())
        at = credential.end() if credential else match.end()
        if credential is None:
            continue
        value = credential.group().rstrip(".:")
        if match.group("header") is None and (
            (match.start() and lower[match.start() - 1].isalpha())
            or len(value) < MIN_BARE_BEARER_CHARS
        ):
            continue
        mixed_case = value.lower() != value and value.upper() != value
        if (_strong(value) or mixed_case) and _literal_ok(value):
            end = credential.start() + len(value)
            yield _HEADER_PRIORITY, credential.start(), end, "authorization header"


# --- assignments --------------------------------------------------------------------

_SECRET_NAME = re.compile(
    r"(?P<word>passphrase|password|passwd|passcode|pass|pwd|pw|secret|token|key"
    r"|credentials|credential|creds)"
    r"(?:[_.-](?:base|value|b64|base64|hex|raw|plain|plaintext))?"
    r"(?P<close>[\"'`\]\\]{0,3})(?P<gap>[ \t]{0,8})"
    r"(?:(?P<op>:=|=>|===|==|\?=|\+=|=|:|>)"
    r"|(?P<prose>(?:is|was)(?:[ \t]+set[ \t]+to)?[ \t]*:?(?=[ \t])))?"
    r"[ \t]{0,8}"
)
"""A secret word ending a key's name (lower-cased text), then how a value is given."""
_VALUE = re.compile(
    rf"[rRbBuUfF]{{0,2}}\\?\"(?P<double>[^\"\n]{{0,{MAX_VALUE_CHARS}}})\""
    rf"|[rRbBuUfF]{{0,2}}\\?'(?P<single>[^'\n]{{0,{MAX_VALUE_CHARS}}})'"
    rf"|`(?P<back>[^`\n]{{0,{MAX_VALUE_CHARS}}})`"
    rf"|(?P<bare>[^\s\"'`,;<]{{1,{MAX_VALUE_CHARS}}})"
)
_TYPE_ANNOTATION = re.compile(
    r"[ \t]*&?[A-Za-z_][\w.]{0,40}(?:\[[^\]\n]{0,40}\]{1,2})?"
    r"(?:[ \t]*\|[ \t]*[A-Za-z_][\w.]{0,40})?[ \t]*=(?![=>])[ \t]*"
)
"""``: str =`` between a name and its value (``password: str = "..."``)."""
_OPTION = re.compile(r"[A-Za-z_][\w.-]*=[^=]")
_NETRC_LOGIN = re.compile(r"\blogin\s{1,40}\S{1,200}\s{1,40}\Z")
_NAME_CHARS = frozenset(string.ascii_lowercase + string.digits + "_.-")
MAX_NAME_CHARS = 100

_PASSWORD_WORDS = frozenset({"passphrase", "password", "passwd", "passcode", "pass", "pwd", "pw"})
_QUALIFIED_WORDS = frozenset({"pass", "key"})
"""Words that name a secret only after a qualifier (``db_pass``, ``api_key``)."""
_GLUE_NEEDS_BOUNDARY = frozenset({"pass", "pwd", "pw"})
"""Words that never end a longer word (``bypass``, ``compass``) unless camel-cased."""
_KEY_QUALIFIERS = tuple(
    """
    api apps app secret private access signing sign encryption encrypt decryption
    master account client auth license licence subscription service deploy ssh consumer
    storage admin webhook shared hmac session jwt crypto cipher aes root ingest server
    partner merchant gpg pgp rsa tls ssl token write bot live personal developer sdk
    mgmt management cookie otp totp mfa
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""What may come just before ``key`` for the name to be a secret's (``api_key``)."""
_NOT_SECRET_KEYS = frozenset(
    """
    public pub primary foreign cache sort partition hash range row composite unique
    natural lookup index dict map object s3 bucket redis idempotency routing
    translation i18n message group label order item hot short cut keyboard hotkey
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""Qualifiers that make an upper-case ``*_KEY`` variable something other than a secret."""
_NOT_SECRET_TOKENS = tuple(
    """
    page next continuation pagination cursor sync resume cancel cancellation lexer
    parser eof start end special bos eos pad unk mask sep cls max min num input output
    prompt completion total stop word first last prev previous current
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""Qualifiers of ``token`` that name something other than a credential (LLM, paging)."""
_AWS_SECRET = re.compile(r"[A-Za-z0-9/+]{40}")


def _assignments(text: str, lower: str) -> Iterator[_Candidate]:
    netrc_possible = "login" in lower
    at = 0
    while (match := _SECRET_NAME.search(lower, at)) is not None:
        at = match.end()
        op, prose, gap = match.group("op", "prose", "gap")
        if not (op or prose or gap):
            continue  # "tokens", "password_hash": the word does not end the name
        name_start = _secret_name_start(text, lower, match)
        if name_start is None:
            continue
        test = _bare_value_test(lower, name_start, op, prose, bool(gap), netrc_possible)
        if test is None:
            continue
        value_at = match.end()
        if op == ":" and (annotated := _TYPE_ANNOTATION.match(text, value_at)):
            value_at = annotated.end()
        span = _assigned_value(text, lower, value_at, name_start, test)
        if span is None or (op == ">" and not text.startswith("</", span[1])):
            continue
        at = max(at, span[1])
        full_name = lower[name_start : match.start("close")]
        kind = "password assignment" if match["word"] in _PASSWORD_WORDS else "secret assignment"
        if "secret" in full_name and ("aws" in full_name or "access" in full_name):
            kind = "aws secret key" if _AWS_SECRET.fullmatch(text, *span) else kind
        yield _ASSIGNMENT_PRIORITY, span[0], span[1], kind


def _secret_name_start(text: str, lower: str, match: re.Match[str]) -> int | None:
    """Where the key's name starts, if it ends in a secret word that names a secret."""
    word, at = match["word"], match.start("word")
    start = at
    while start > 0 and at - start < MAX_NAME_CHARS and lower[start - 1] in _NAME_CHARS:
        start -= 1
    prefix = lower[start:at]
    camel = at > 0 and text[at].isupper() and text[at - 1].islower()
    glued = bool(prefix) and prefix[-1].isalnum() and not camel
    if glued and word in _GLUE_NEEDS_BOUNDARY:
        return None
    qualifier = prefix.rstrip("_.-") if glued else _last_part(prefix)
    if word == "key" and not prefix and lower[max(0, at - 1) : at] == " ":
        previous = _last_part(lower[max(0, at - 21) : at - 1])
        if previous in _KEY_QUALIFIERS:  # "API key: ..."
            return at - 1 - len(previous)
    if word in _QUALIFIED_WORDS and not qualifier and not prefix.startswith("-"):
        return None
    if word == "key" and not _secret_key_qualifier(text, start, match, qualifier, glued):
        return None
    if word == "token" and (
        qualifier.endswith(_NOT_SECRET_TOKENS) if glued else qualifier in _NOT_SECRET_TOKENS
    ):
        return None
    return start


_PART_SEPARATORS = re.compile(r"[_.\-\s]+")


def _last_part(prefix: str) -> str:
    """``aws_secret_access_`` -> ``access``: the last part of a name before the word."""
    return _PART_SEPARATORS.split(prefix.rstrip("_.- \t"))[-1] if prefix else ""


def _secret_key_qualifier(
    text: str, start: int, match: re.Match[str], qualifier: str, glued: bool
) -> bool:
    if glued:
        return qualifier.endswith(_KEY_QUALIFIERS)
    if qualifier in _KEY_QUALIFIERS:
        return True
    name = text[start : match.start("close")]
    return name.isupper() and "_" in name and qualifier not in _NOT_SECRET_KEYS


def _bare_value_test(
    lower: str, name_start: int, op: str | None, prose: str | None, spaced: bool, netrc: bool
) -> Callable[[str], bool] | None:
    """How an unquoted value given to the name is judged, or None if none can be given.

    After an operator (but not in ``arn:...:secret:...``) or "is", a value may be code,
    so it must be strong and no expression; in ``<password>...</password>``, after a
    ``--flag`` and in a .netrc line it is a literal; after a bare space ("the token
    a8F3...") it must be long and look random.
    """
    before = lower[name_start - 1] if name_start else ""
    if op == ">":
        return _quoted_ok if before == "<" else None
    if op is not None:
        return None if op == ":" and before == ":" else _bare_ok
    if not spaced:
        return None
    if prose is not None:
        return _bare_ok if lower[name_start] in string.ascii_lowercase else None
    if lower[name_start] == "-":
        return _quoted_ok  # --password s3cret
    if netrc and _NETRC_LOGIN.search(lower, max(0, name_start - 280), name_start):
        return _quoted_ok
    return _spaced_ok if lower[name_start] in string.ascii_lowercase else None


def _assigned_value(
    text: str, lower: str, at: int, name_start: int, bare_test: Callable[[str], bool]
) -> _Span | None:
    """Where the value at ``at`` is, if it is a secret (quoted values are literals)."""
    value = _VALUE.match(text, at)
    if value is None or value.lastgroup is None:
        return None
    found, start = value[value.lastgroup], value.start(value.lastgroup)
    if value.lastgroup != "bare":
        found = found.rstrip("\\")
        return (start, start + len(found)) if _quoted_ok(found) else None
    if name_start and lower[name_start - 1] in "?&":
        found = found.split("&", 1)[0]  # a query parameter
    found = found.rstrip(".)]}>")
    if _OPTION.match(found):
        return None  # --secret id=npmrc,src=...: an option, not its value
    return (start, start + len(found)) if bare_test(found) else None


# --- high-entropy strings -----------------------------------------------------------

_CANDIDATE_TOKEN = re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}")
_NOT_SECRET_BEFORE = re.compile(
    r"(?:(?:sha-?(?:1|224|256|384|512)|md5|h1|blake2[bs]?|xxh(?:32|64|128)?|crc32c?|etag"
    r"|digest|integrity|checksum|hash|nonce|(?:request|correlation|trace|span|cf|amz"
    r"|operation|event|message|execution|build|run|job|transaction|idempotency)[-_]?id(?:-2)?)"
    r"[\s:=\"'`]{0,3}|base64,|\bpk\.)\Z",
    re.IGNORECASE,
)
"""What a digest, an id of a request or event, inline content or a public Mapbox token
follows."""
_DIGEST_PREFIX = re.compile(r"(?:sha(?:1|224|256|384|512)|md5)-", re.IGNORECASE)
_IPFS_ID = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}")
_PUBLIC_STARTS = (
    "iVBORw0KGgo",  # PNG
    "/9j/",  # JPEG
    "R0lGOD",  # GIF
    "UklGR",  # RIFF (WebP, WAV)
    "JVBERi0",  # PDF
    "UEsDB",  # zip
    "H4sI",  # gzip
    "AAAAB3NzaC1",  # ssh-rsa, ssh-dss public key
    "AAAAC3NzaC1",  # ssh-ed25519 public key
    "AAAAE2VjZHNh",  # ecdsa public key
    "AAAAGnNrLXNzaC1",  # sk-ssh-ed25519 public key
)
"""Base64 of content and of public keys: high entropy, no secret."""
MIN_PATH_SLASHES = 2
MAX_DECODED_CHARS = 8_192
"""Base64 up to this long that decodes to text is judged by that text."""
_SOPS_VALUE = "ENC["
"""A sops-encrypted value (``ENC[AES256_GCM,data:...,iv:...,tag:...]``): ciphertext."""


def _high_entropy(text: str, decode: bool) -> Iterator[_Candidate]:
    public_blocks: list[_Span] | None = None
    for match in _CANDIDATE_TOKEN.finditer(text):
        start, token = match.start(), match.group()
        if token.startswith((*_PUBLIC_STARTS, *_PUBLISHABLE_KEYS)) or _NOT_SECRET_BEFORE.search(
            text, max(0, start - 24), start
        ):
            continue
        if public_blocks is None:
            public_blocks = _not_secret_regions(text)
        if any(region_start <= start < region_end for region_start, region_end in public_blocks):
            continue
        if not _mixed(token.rstrip("=")):
            continue
        decoded = _decoded_text(token) if decode else None
        if decoded is not None:  # base64 of text: judged by the text
            inner = next(_candidates(decoded, decode=False), None)
            if inner is not None:
                yield inner[0], start, match.end(), inner[3]
            continue
        for offset, piece in _judged_pieces(token):
            if _looks_random(piece):
                at = start + offset
                yield _ENTROPY_PRIORITY, at, at + len(piece), "high-entropy string"


def _not_secret_regions(text: str) -> list[_Span]:
    """Certificates, public keys and other PEM blocks that are not private, and sops values."""
    regions = []
    if "-----BEGIN" in text:
        for begin in _PEM_BEGIN.finditer(text):
            if "PRIVATE" not in begin.group(1):
                footer = _PEM_END.search(text, begin.end(), begin.end() + MAX_KEY_CHARS)
                regions.append((begin.start(), footer.end() if footer else begin.end()))
    at = text.find(_SOPS_VALUE)
    while at >= 0:
        end = text.find("]", at)
        regions.append((at, len(text) if end < 0 else end))
        at = text.find(_SOPS_VALUE, at + 1)
    return regions


def _decoded_text(token: str) -> str | None:
    """The text a base64 token encodes, or None if it is not base64 of printable text."""
    core = token.rstrip("=")
    if len(core) > MAX_DECODED_CHARS:
        return None
    alphabet = b"-_" if "-" in core or "_" in core else None
    try:
        raw = b64decode(core + "=" * (-len(core) % 4), altchars=alphabet, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return decoded if decoded.isprintable() or _PRINTABLE_TEXT.fullmatch(decoded) else None


_PRINTABLE_TEXT = re.compile(r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*")
"""Text with line breaks and tabs but no other control characters."""


def _judged_pieces(token: str) -> Iterator[tuple[int, str]]:
    """The token, or each of its ``/`` pieces when it is a path (a piece is a word)."""
    pieces = token.split("/")
    if len(pieces) <= MIN_PATH_SLASHES or not any(
        len(p) >= 3 and p.isalpha() and p.islower() for p in pieces
    ):
        yield 0, token
        return
    offset = 0
    for piece in pieces:
        yield offset, piece
        offset += len(piece) + 1


def _mixed(core: str) -> bool:
    """Long enough, upper and lower case and a digit (or base64's ``+``), and not hex."""
    return (
        len(core) >= MIN_ENTROPY_CHARS
        and core.lower() != core != core.upper()
        and bool(_DIGIT.search(core) or "+" in core)
        and not _HEX_PIECE.fullmatch(core.replace("-", "").replace("_", ""))
    )


def _looks_random(token: str) -> bool:
    core = token.rstrip("=")
    if not _mixed(core) or _DIGEST_PREFIX.match(core) or _IPFS_ID.fullmatch(core):
        return False
    return _entropy(core) >= MIN_ENTROPY_BITS and not _reads_as_words(core)


_PRIVATE_KEY_PRIORITY = 0
_PROVIDER_PRIORITY = 1
_URL_PRIORITY = _PROVIDER_PRIORITY + len(_SHAPES)
_HEADER_PRIORITY = _URL_PRIORITY + 1
_ASSIGNMENT_PRIORITY = _HEADER_PRIORITY + 1
_ENTROPY_PRIORITY = _ASSIGNMENT_PRIORITY + 1

_RANKED_SHAPES = tuple(enumerate(_SHAPES, start=_PROVIDER_PRIORITY))
_HINTLESS_SHAPES = tuple((priority, shape) for priority, shape in _RANKED_SHAPES if not shape.hints)
"""What a text without any hint is matched against (checking every shape's hints for
such a text, most texts, cost more than all its regular expressions)."""
