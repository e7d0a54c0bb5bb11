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
  dummy words (``ghp_xxxx...``, ``xoxb-your-token``) is not. The keys of letters and
  digits with a fixed prefix (AWS, GitHub, Stripe, Google, npm, PyPI, SendGrid, Hugging
  Face, DigitalOcean, Shopify, Databricks, Linear, age, Groq, xAI, Perplexity,
  Replicate, Notion, Supabase) are also found written with separators: in even groups
  of 3 to 8 joined by one kind of space or dash (``AKIA PIX6 EA6Q OM66 ZJOJ``,
  ``AKIA-PIX6-...``), or wrapped over lines (a line break, with a shell's ``\`` or the
  next line's indentation). Groups of uneven width, mixed separators, or a prefix split
  itself are not read as one key.
* **Private keys**: a ``-----BEGIN ... PRIVATE KEY-----`` header (RSA, EC, DSA, OPENSSH,
  ENCRYPTED, PGP ``PRIVATE KEY BLOCK``) followed by at least 16 characters of key
  material (newlines may be written ``\n``). The span runs to the ``-----END`` line.
* **Passwords in URLs** (``scheme://user:password@host``, the password URL-decoded) and
  on command lines (``curl -u user:password``, ``--user user:password``, MySQL's
  ``-ppassword`` and ``redis-cli -a password``).
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
* Other single-dash flags (``-p secret`` with a space), positional
  arguments, ``.pgpass`` lines, PINs and other digit-only values, password hashes as
  such, and session cookies unless they are high-entropy strings. Base64 of binary data
  (a protobuf fixture, say) looks like a key and is found as a high-entropy string.

The patterns, word lists and provider shapes, each with its source, are the tables of
:mod:`graphmem.trust.secret_patterns`; this module applies them. Pure and
deterministic; every pattern is compiled once, repetition is bounded or cannot
backtrack, and patterns begin with a literal where they can, so a text is scanned in
linear time (a megabyte of text in well under a second; 0.1 ms for a 300-character note).
"""

from __future__ import annotations

import binascii
import itertools
import math
import re
import string
from base64 import b64decode
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from graphmem.trust.secret_patterns import (
    AUTHORIZATION,
    AWS_SECRET,
    CLIENT_FLAG,
    CODE,
    CREDENTIAL,
    DIGEST_PREFIX,
    DUMMY_WORDS,
    GLUE_NEEDS_BOUNDARY,
    GROUP,
    GROUP_SEPARATOR,
    IPFS_ID,
    KEY_MATERIAL,
    KEY_QUALIFIERS,
    LINE_WRAP,
    MASK,
    MAX_GROUP_CHARS,
    MAX_SEPARATED_CHARS,
    MIN_GROUP_CHARS,
    NETRC_LOGIN,
    NOT_SECRET_BEFORE,
    NOT_SECRET_KEYS,
    NOT_SECRET_TOKENS,
    OPTION,
    PASSWORD_WORDS,
    PEM_BEGIN,
    PEM_END,
    PLACEHOLDER,
    PRIVATE_KEY,
    PUBLIC_STARTS,
    PUBLISHABLE_KEYS,
    QUALIFIED_WORDS,
    SECRET_NAME,
    SHAPES,
    SOPS_VALUE,
    TYPE_ANNOTATION,
    URL_USERINFO,
    USER_FLAG,
    VALUE,
    WRAPPED_LINE,
    Extent,
    Shape,
)


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
_Span = tuple[int, int]


def _candidates(text: str, decode: bool = True) -> Iterator[_Candidate]:
    """Every finding, overlaps included; ``decode`` also reads base64 of text."""
    lower = _same_length_lower(text)
    yield from _private_keys(text)
    yield from _provider_tokens(text)
    yield from _separated_tokens(text)
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


_PRIVATE_KEY_PRIORITY = 0
_PROVIDER_PRIORITY = 1
_URL_PRIORITY = _PROVIDER_PRIORITY + len(SHAPES)
_HEADER_PRIORITY = _URL_PRIORITY + 1
_ASSIGNMENT_PRIORITY = _HEADER_PRIORITY + 1
_ENTROPY_PRIORITY = _ASSIGNMENT_PRIORITY + 1

# --- what a value must not be -------------------------------------------------------

MIN_SECRET_CHARS = 6
"""A shorter value is not taken for a password or token."""
MAX_DUMMY_DIGITS = 4
"""A value of dummy words is still a dummy with this many digits (``password123``)."""
MAX_DUMMY_CHARS = 64
"""Longer values are never taken for dummies."""
MIN_SPACED_CHARS = 16
"""A value after a bare space ("the token a8F3...") must be at least this long."""
MIN_DISTINCT_CHARS = 5
"""A provider token with fewer distinct characters is a filler (``ghp_000...``)."""

_LONGEST_DUMMY = max(map(len, DUMMY_WORDS))
_LETTER_RUN = re.compile(r"[a-z]+")
_SPACE = re.compile(r"\s")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"[0-9]")
_SYMBOL = re.compile(r"[!@#$%^&*+=?~|]")


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
                reachable[end] = reachable[end] or run[begin:end] in DUMMY_WORDS
    return reachable[-1]


def _is_filler(value: str, min_distinct: int = 3) -> bool:
    """A masked or elided value, one of too few distinct characters, or a dummy."""
    return bool(MASK.search(value) or len(set(value.lower())) < min_distinct or _is_dummy(value))


def _is_fake(value: str) -> bool:
    """A placeholder or reference, or a filler."""
    return bool(PLACEHOLDER.search(value)) or _is_filler(value)


def _literal_ok(value: str) -> bool:
    """Whether a value written literally (in a URL, quoted, after a flag) is a secret."""
    return (
        len(value) >= MIN_SECRET_CHARS
        and not _SPACE.search(value)
        and bool(_LETTER.search(value))
        and not value.startswith(PUBLISHABLE_KEYS)
        and not _is_fake(value)
    )


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
    match = CODE.match(value)
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

LEAD_CHARS = 32
"""How far before a match a shape's ``lead`` is looked for."""
NEAR_CHARS = 200
"""How far either side of a match a shape's ``near`` word is looked for."""
SIGNED_QUERY_CHARS = 600
"""How far before a signature its query string's ``sv=`` is looked for."""

_RANKED_SHAPES = tuple(enumerate(SHAPES, start=_PROVIDER_PRIORITY))
_HINTLESS_SHAPES = tuple((priority, shape) for priority, shape in _RANKED_SHAPES if not shape.hints)
"""What a text without any hint is matched against (checking every shape's hints for
such a text, most texts, cost more than all its regular expressions)."""
_HINTS = frozenset(hint for shape in SHAPES for hint in shape.hints)
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
            span = _confirmed(shape, text, match)
            if span is not None:
                yield priority, span[0], span[1], shape.kind


def _confirmed(shape: Shape, text: str, match: re.Match[str]) -> _Span | None:
    """Where the secret is, if the match passes its shape's checks."""
    span = _extent(shape, text, match)
    if (
        span is None
        or not _body_ok(shape, match.group("b"))
        or (shape.near and shape.near not in _around(text, match, NEAR_CHARS))
    ):
        return None
    return span


def _extent(shape: Shape, text: str, match: re.Match[str]) -> _Span | None:
    """The span of the secret in the match, if it is bounded as the shape's extent says."""
    start, end = match.span()
    if shape.extent is Extent.VALUE:
        return None if start and text[start - 1] in _ALNUM else match.span("b")
    if shape.extent is Extent.SIGNATURE:
        query = text[max(0, start - SIGNED_QUERY_CHARS) : start]
        return match.span("b") if query.endswith(("?", "&")) and "sv=" in query else None
    if shape.lead is None:
        return (start, end) if _bounded(text, start, end) else None
    lead = shape.lead.search(text, max(0, start - LEAD_CHARS), start)
    if lead is None or (end < len(text) and text[end] in _ALNUM):
        return None
    return lead.start(), end


def _random_body(body: str) -> bool:
    return bool(_LETTER.search(body)) and not _reads_as_words(body)


def _around(text: str, match: re.Match[str], reach: int) -> str:
    """The match and ``reach`` characters either side, in lower case."""
    return text[max(0, match.start() - reach) : match.end() + reach].lower()


# --- provider keys written with separators ------------------------------------------

_SEPARABLE = tuple((priority, shape) for priority, shape in _RANKED_SHAPES if shape.separable)
_SEPARABLE_HINT = re.compile(
    "|".join(re.escape(hint) for hint in sorted({h for _, s in _SEPARABLE for h in s.hints}))
)
_KEYLIKE = re.compile(r"[A-Z0-9_]")


@dataclass(frozen=True)
class _Joined:
    """A key's pieces joined without their separators, with the way back to the text.

    Attributes:
        text: The pieces joined.
        at: For each character of ``text``, its offset in the original text.
        ends: Where each piece ends in ``text``, ascending (the first piece's end first).
    """

    text: str
    at: tuple[int, ...]
    ends: tuple[int, ...]


def _separated_tokens(text: str) -> Iterator[_Candidate]:
    """Separable provider keys written in groups or wrapped over lines.

    A key is read from the start of the token that holds a prefix: its pieces are joined
    and matched against the shape, which must end where a piece ends and span a
    separator (a key written whole is the plain finder's).
    """
    done = 0
    for hint in _SEPARABLE_HINT.finditer(text):
        start = hint.start()
        while start > done and hint.start() - start < LEAD_CHARS and text[start - 1] in _ALNUM:
            start -= 1
        if start < done or (start and text[start - 1] in _ALNUM):
            continue
        for joined in (_grouped(text, start, hint.end()), _wrapped(text, start, hint.end())):
            found = _separated_match(text, joined) if joined else None
            if found is not None:
                done = found[2]
                yield found
                break


def _grouped(text: str, start: int, prefix_end: int) -> _Joined | None:
    """The key at ``start`` read in even groups (``AKIA PIX6 EA6Q``), or None."""
    first = GROUP.match(text, prefix_end)
    pieces = [(start, first.end() if first else prefix_end)]
    separator = width = None
    while pieces[-1][1] - start < MAX_SEPARATED_CHARS:
        gap = GROUP_SEPARATOR.match(text, pieces[-1][1])
        group = GROUP.match(text, gap.end()) if gap else None
        if gap is None or group is None or separator not in (None, gap.group()):
            break
        separator, size = gap.group(), group.end() - group.start()
        width = size if width is None else width
        if not MIN_GROUP_CHARS <= width <= MAX_GROUP_CHARS or size > width:
            break
        pieces.append(group.span())
        if size < width:
            break
    return _joined(text, pieces)


def _wrapped(text: str, start: int, prefix_end: int) -> _Joined | None:
    """The key at ``start`` read over line breaks, each line a piece of it, or None."""
    line = WRAPPED_LINE.match(text, prefix_end)
    pieces = [(start, line.end() if line else prefix_end)]
    while pieces[-1][1] - start < MAX_SEPARATED_CHARS:
        wrap = LINE_WRAP.match(text, pieces[-1][1])
        line = WRAPPED_LINE.match(text, wrap.end()) if wrap else None
        if line is None:
            break
        pieces.append(line.span())
    return _joined(text, pieces)


def _joined(text: str, pieces: list[_Span]) -> _Joined | None:
    if len(pieces) < 2:
        return None
    at = tuple(offset for begin, end in pieces for offset in range(begin, end))
    ends = tuple(itertools.accumulate(end - begin for begin, end in pieces))
    return _Joined("".join(text[begin:end] for begin, end in pieces), at, ends)


def _separated_match(text: str, joined: _Joined) -> _Candidate | None:
    """The first separable shape that the joined pieces make, ending where a piece does.

    The key ends at the last piece that still fits the shape and holds a digit, a
    capital or ``_`` (a word after a key, "ok", is prose; a piece of a random key holds
    one nearly always), or else at the first piece that completes it.
    """
    for priority, shape in _SEPARABLE:
        if not any(hint in joined.text[: joined.ends[0]] for hint in shape.hints):
            continue
        first = end = None
        for previous, piece_end in itertools.pairwise(joined.ends):
            match = shape.pattern.fullmatch(joined.text, 0, piece_end)
            if match is None or not _body_ok(shape, match.group("b")):
                if first is not None:
                    break
                continue
            first = first or piece_end
            if _KEYLIKE.search(joined.text, previous, piece_end):
                end = piece_end
        end = end or first
        if end is not None:
            return priority, joined.at[0], joined.at[end - 1] + 1, shape.kind
    return None


def _body_ok(shape: Shape, body: str) -> bool:
    """The shape's checks on a key's body, but for where it is and what is near it."""
    return not (
        (shape.random and not _random_body(body))
        or (shape.min_digits and len(_DIGIT.findall(body)) < shape.min_digits)
        or _is_filler(body, MIN_DISTINCT_CHARS)
    )


# --- private keys -------------------------------------------------------------------

MAX_KEY_CHARS = 65_536
"""How far past a private-key header its ``-----END`` line is looked for."""


def _private_keys(text: str) -> Iterator[_Candidate]:
    for header in PRIVATE_KEY.finditer(text):
        material = KEY_MATERIAL.match(text, header.end())
        if material is None:
            continue
        footer = PEM_END.search(text, material.end(), material.end() + MAX_KEY_CHARS)
        end = footer.end() if footer else material.end()
        yield _PRIVATE_KEY_PRIORITY, header.start(), end, "private key"


# --- passwords in URLs and on command lines -----------------------------------------


def _url_passwords(text: str) -> Iterator[_Candidate]:
    for match in URL_USERINFO.finditer(text):
        if match.start() == 0 or text[match.start() - 1] not in _ALNUM:
            continue  # no scheme before ://
        if _literal_ok(unquote(match.group("password"))):
            yield _URL_PRIORITY, *match.span("password"), "password in url"


def _command_line_passwords(text: str) -> Iterator[_Candidate]:
    for match in USER_FLAG.finditer(text):
        if match.start() and text[match.start() - 1] not in " \t\"'`(":
            continue
        if _quoted_ok(match.group("password")):
            yield _URL_PRIORITY, *match.span("password"), "password in command"
    for match in CLIENT_FLAG.finditer(text):
        group = "password" if match.group("password") is not None else "auth"
        if _quoted_ok(match.group(group)):
            yield _URL_PRIORITY, *match.span(group), "password in command"


# --- authorization headers ----------------------------------------------------------

MIN_BARE_BEARER_CHARS = 16
"""A ``Bearer`` credential outside an Authorization header must be at least this long."""


def _authorization_headers(text: str, lower: str) -> Iterator[_Candidate]:
    at = 0
    while (match := AUTHORIZATION.search(lower, at)) is not None:
        credential = CREDENTIAL.match(text, match.end())
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

_NAME_CHARS = frozenset(string.ascii_lowercase + string.digits + "_.-")
MAX_NAME_CHARS = 100


def _assignments(text: str, lower: str) -> Iterator[_Candidate]:
    netrc_possible = "login" in lower
    at = 0
    while (match := SECRET_NAME.search(lower, at)) is not None:
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
        if op == ":" and (annotated := TYPE_ANNOTATION.match(text, value_at)):
            value_at = annotated.end()
        span = _assigned_value(text, lower, value_at, name_start, test)
        if span is None or (op == ">" and not text.startswith("</", span[1])):
            continue
        at = max(at, span[1])
        full_name = lower[name_start : match.start("close")]
        kind = "password assignment" if match["word"] in PASSWORD_WORDS else "secret assignment"
        if "secret" in full_name and ("aws" in full_name or "access" in full_name):
            kind = "aws secret key" if AWS_SECRET.fullmatch(text, *span) else kind
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
    if glued and word in GLUE_NEEDS_BOUNDARY:
        return None
    qualifier = prefix.rstrip("_.-") if glued else _last_part(prefix)
    if word == "key" and not prefix and lower[max(0, at - 1) : at] == " ":
        previous = _last_part(lower[max(0, at - 21) : at - 1])
        if previous in KEY_QUALIFIERS:  # "API key: ..."
            return at - 1 - len(previous)
    if word in QUALIFIED_WORDS and not qualifier and not prefix.startswith("-"):
        return None
    if word == "key" and not _secret_key_qualifier(text, start, match, qualifier, glued):
        return None
    if word == "token" and (
        qualifier.endswith(NOT_SECRET_TOKENS) if glued else qualifier in NOT_SECRET_TOKENS
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
        return qualifier.endswith(KEY_QUALIFIERS)
    if qualifier in KEY_QUALIFIERS:
        return True
    name = text[start : match.start("close")]
    return name.isupper() and "_" in name and qualifier not in NOT_SECRET_KEYS


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
    if netrc and NETRC_LOGIN.search(lower, max(0, name_start - 280), name_start):
        return _quoted_ok
    return _spaced_ok if lower[name_start] in string.ascii_lowercase else None


def _assigned_value(
    text: str, lower: str, at: int, name_start: int, bare_test: Callable[[str], bool]
) -> _Span | None:
    """Where the value at ``at`` is, if it is a secret (quoted values are literals)."""
    value = VALUE.match(text, at)
    if value is None or value.lastgroup is None:
        return None
    found, start = value[value.lastgroup], value.start(value.lastgroup)
    if value.lastgroup != "bare":
        found = found.rstrip("\\")
        return (start, start + len(found)) if _quoted_ok(found) else None
    if name_start and lower[name_start - 1] in "?&":
        found = found.split("&", 1)[0]  # a query parameter
    found = found.rstrip(".)]}>")
    if OPTION.match(found):
        return None  # --secret id=npmrc,src=...: an option, not its value
    return (start, start + len(found)) if bare_test(found) else None


# --- high-entropy strings -----------------------------------------------------------

_CANDIDATE_TOKEN = re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}")
MIN_PATH_SLASHES = 2
MAX_DECODED_CHARS = 8_192
"""Base64 up to this long that decodes to text is judged by that text."""


def _high_entropy(text: str, decode: bool) -> Iterator[_Candidate]:
    public_blocks: list[_Span] | None = None
    for match in _CANDIDATE_TOKEN.finditer(text):
        start, token = match.start(), match.group()
        if token.startswith((*PUBLIC_STARTS, *PUBLISHABLE_KEYS)) or NOT_SECRET_BEFORE.search(
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
        for begin in PEM_BEGIN.finditer(text):
            if "PRIVATE" not in begin.group(1):
                footer = PEM_END.search(text, begin.end(), begin.end() + MAX_KEY_CHARS)
                regions.append((begin.start(), footer.end() if footer else begin.end()))
    at = text.find(SOPS_VALUE)
    while at >= 0:
        end = text.find("]", at)
        regions.append((at, len(text) if end < 0 else end))
        at = text.find(SOPS_VALUE, at + 1)
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
    if not _mixed(core) or DIGEST_PREFIX.match(core) or IPFS_ID.fullmatch(core):
        return False
    return _entropy(core) >= MIN_ENTROPY_BITS and not _reads_as_words(core)
