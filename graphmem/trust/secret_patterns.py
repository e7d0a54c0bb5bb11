"""The tables the secret finder (:mod:`graphmem.trust.secrets`) applies, with their sources.

Data only: compiled patterns, word lists and the provider shapes; the finder holds the
logic that applies them (scanning, randomness, overlaps). Each provider :class:`Shape`
names where its form is published (the provider's documentation, or where none is, the
open-source scanners gitleaks, https://github.com/gitleaks/gitleaks, config/gitleaks.toml,
and trufflehog, https://github.com/trufflesecurity/trufflehog, pkg/detectors/, by rule or
detector name). Every other family names its source in a ``Source:`` line. Where a
rule is grounded on graphmem's own labelled samples, it names them:
``tests/data/secrets/secret_texts.jsonl`` (secrets) and ``benign_texts.jsonl`` (tricky
texts that must pass).

Every pattern is compiled once, here, at import; repetition is bounded or cannot
backtrack, and patterns begin with a literal where they can.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

# --- provider keys and tokens -------------------------------------------------------


class Extent(StrEnum):
    """Which part of a shape's match is the secret, and what must bound it."""

    TOKEN = "token"
    """The whole match, with no letter or digit on either side. A shape with a ``lead``
    starts where its lead does; the lead's pattern holds its own left boundary."""
    VALUE = "value"
    """Only group ``b``, the value after a name such as ``AccountKey=``; no letter or
    digit may come just before the name."""
    SIGNATURE = "signature"
    """Only group ``b``, the signature of a query string that carries ``sv=`` before it
    and opens the parameter with ``?`` or ``&`` (an Azure shared access signature)."""


@dataclass(frozen=True)
class Shape:
    """A provider's key or token: its pattern, what confirms a match, and its source.

    Attributes:
        kind: The finding's kind, such as "github token" (shapes may share one).
        hints: Literals of which every match holds one: the pattern runs only if one is
            in the text (no hints: it always runs).
        pattern: The token; its group ``b`` is the part that must not be filler
            (masked, dummy words, or fewer than five distinct characters).
        source: Where the shape is published or seen.
        extent: Which part of the match is the secret.
        lead: A pattern that must end just before the match (within the finder's
            ``LEAD_CHARS``), for a token anchored on its middle.
        random: Whether ``b`` must also look random (a letter, and no words): for
            prefixes common in ordinary text (``sk-``, ``hf_``, ``secret_``).
        min_digits: How many digits ``b`` must hold at the least.
        near: A word (lower case) that must be within the finder's ``NEAR_CHARS`` of
            the match.
        separable: Whether the key is also found written with separators: in groups
            (``AKIA PIX6 EA6Q OM66 ZJOJ``, ``AKIA-PIX6-...``) or wrapped over lines. Only
            for keys of letters, digits and ``_`` whose shape is exact enough that joining
            groups cannot make one out of prose (a fixed prefix and a long body).
    """

    kind: str
    hints: tuple[str, ...]
    pattern: re.Pattern[str]
    source: str
    extent: Extent = Extent.TOKEN
    lead: re.Pattern[str] | None = None
    random: bool = False
    min_digits: int = 0
    near: str = ""
    separable: bool = False


def _shape(
    kind: str,
    hints: str,
    pattern: str,
    source: str,
    *,
    extent: Extent = Extent.TOKEN,
    lead: str | None = None,
    random: bool = False,
    min_digits: int = 0,
    near: str = "",
    separable: bool = False,
) -> Shape:
    """A shape; ``hints`` are split on spaces, ``pattern`` and ``lead`` are compiled."""
    compiled_lead = None if lead is None else re.compile(lead)
    return Shape(
        kind,
        tuple(hints.split()),
        re.compile(pattern),
        source,
        extent,
        compiled_lead,
        random,
        min_digits,
        near,
        separable,
    )


_NOT_AFTER = "(?<![A-Za-z0-9_-]{})"
"""A lookbehind put after a literal prefix (so the regex engine still scans for the
literal): no token character before it. Without it a run of prefixes backtracks."""

SHAPES = (
    _shape(
        "aws access key",
        "AKIA ASIA ABIA ACCA",
        r"(?:AKIA|ASIA|ABIA|ACCA)(?P<b>[A-Z0-9]{16})",
        "AWS IAM User Guide, 'IAM identifiers', unique ID prefixes AKIA (access key), ASIA"
        " (temporary), ABIA, ACCA: https://docs.aws.amazon.com/IAM/latest/UserGuide/"
        "reference_identifiers.html; gitleaks aws-access-token",
        separable=True,
    ),
    _shape(
        "github token",
        "ghp_ gho_ ghu_ ghs_ ghr_",
        r"gh[pousr]_(?P<b>[A-Za-z0-9]{36,251})",
        "GitHub docs, 'About authentication to GitHub' (GitHub's token formats); changelog"
        " 2021-03-31 'Authentication token format updates are generally available': ghp_,"
        " gho_, ghu_, ghs_, ghr_, up to 255 characters",
        separable=True,
    ),
    _shape(
        "github token",
        "github_pat_",
        r"github_pat_(?P<b>[A-Za-z0-9_]{60,251})",
        "GitHub docs, 'About authentication to GitHub': fine-grained personal access"
        " tokens, github_pat_; gitleaks github-fine-grained-pat",
        separable=True,
    ),
    _shape(
        "gitlab token",
        "glpat- gldt- glrt- glptt- glsoat- glcbt- glft- glimt-",
        r"gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt)-(?P<b>[A-Za-z0-9_.-]{20,255})",
        "GitLab docs, 'GitLab token overview' (token prefixes: glpat-, gldt-, glrt-,"
        " glptt-, glsoat-, glcbt-, glft-, glimt-); gitleaks gitlab-* rules",
    ),
    _shape(
        "slack token",
        "xox",
        r"xox[abposre]-(?P<b>[A-Za-z0-9-]{10,250})",
        "Slack API docs, 'Token types' (https://api.slack.com/authentication/token-types):"
        " xoxb-, xoxp-, xoxa-, xoxe-, xoxr-, ids of digits; gitleaks slack-*-token",
        min_digits=8,
    ),
    _shape(
        "slack token",
        "xapp-",
        r"xapp-(?P<b>[0-9]-[A-Za-z0-9-]{20,250})",
        "Slack API docs, 'Token types': app-level tokens xapp-; gitleaks slack-app-token",
        min_digits=8,
    ),
    _shape(
        "slack webhook",
        "hooks.slack.com/",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<b>[A-Za-z0-9/_-]{20,300})",
        "Slack API docs, 'Sending messages using incoming webhooks'"
        " (https://api.slack.com/messaging/webhooks); gitleaks slack-webhook-url",
    ),
    _shape(
        "discord webhook",
        "/api/webhooks/",
        r"discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/(?P<b>[A-Za-z0-9_-]{50,100})",
        "Discord developer docs, 'Webhook Resource' (execute webhook: /webhooks/{id}/"
        "{token}); trufflehog discordwebhook",
    ),
    _shape(
        "stripe key",
        "k_live_ k_test_",
        r"[sr]k_(?:live|test)_(?P<b>[A-Za-z0-9]{16,247})",
        "Stripe docs, 'API keys' (https://docs.stripe.com/keys): secret sk_live_/sk_test_,"
        " restricted rk_live_; gitleaks stripe-access-token",
        separable=True,
    ),
    _shape(
        "stripe key",
        "whsec_",
        r"whsec_(?P<b>[A-Za-z0-9+/=]{24,100})",
        "Stripe docs, webhooks: endpoint signing secrets whsec_",
    ),
    _shape(
        "anthropic key",
        "sk-ant-",
        r"sk-ant-(?P<b>[A-Za-z0-9_-]{32,300})",
        "Anthropic Console API keys sk-ant-api03- and admin keys sk-ant-admin01-;"
        " gitleaks anthropic-api-key, anthropic-admin-api-key",
    ),
    _shape(
        "openai key",
        "sk-",
        r"sk-(?P<b>[A-Za-z0-9_-]{20,300})",
        "OpenAI API keys, sk- and sk-proj-/sk-svcacct-/sk-admin-; gitleaks openai-api-key",
        random=True,
    ),
    _shape(
        "google api key",
        "AIza",
        r"AIza(?P<b>[0-9A-Za-z_-]{35})",
        "Google Cloud API keys, AIza + 35 characters; gitleaks gcp-api-key",
        separable=True,
    ),
    _shape(
        "google oauth secret",
        "GOCSPX-",
        r"GOCSPX-(?P<b>[A-Za-z0-9_-]{28})",
        "Google OAuth 2.0 client secrets (client_secret.json), GOCSPX- + 28 characters",
    ),
    _shape(
        "google oauth token",
        "ya29.",
        r"ya29\.(?P<b>[0-9A-Za-z_-]{30,2048})",
        "Google Cloud docs, 'Token types' (https://cloud.google.com/docs/authentication/"
        "token-types#access): access tokens ya29.; trufflehog googleoauth2",
    ),
    _shape(
        "google oauth token",
        "1//0",
        r"1//0(?P<b>[0-9A-Za-z_-]{30,512})",
        "Google OAuth 2.0 refresh tokens as the token endpoint returns them, 1//0 (a"
        " prefix that also starts paths, so the body must look random)",
        random=True,
    ),
    _shape(
        "npm token",
        "npm_",
        r"npm_(?P<b>[A-Za-z0-9]{36})",
        "npm access tokens, npm_ + 36 characters; gitleaks npm-access-token",
        separable=True,
    ),
    _shape(
        "pypi token",
        "pypi-AgE",
        r"pypi-(?P<b>AgE[A-Za-z0-9_-]{50,1000})",
        "PyPI help, API tokens (https://pypi.org/help/#apitoken): pypi- + a macaroon whose"
        " base64 begins AgE; gitleaks pypi-upload-token",
        separable=True,
    ),
    _shape(
        "twilio key",
        "twilio Twilio TWILIO",
        r"(?:AC|SK)(?P<b>[0-9a-fA-F]{32})",
        "Twilio docs, SIDs: Account SID AC + 32 hex, API key SID SK + 32 hex (common in"
        " ordinary hex, so 'twilio' must be near); gitleaks twilio-api-key",
        near="twilio",
    ),
    _shape(
        "sendgrid key",
        "SG.",
        r"SG\.(?P<b>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})",
        "SendGrid API keys, SG. + 22 + . + 43 characters; gitleaks sendgrid-api-token",
        separable=True,
    ),
    _shape(
        "jwt",
        "eyJ",
        r"eyJ"
        + _NOT_AFTER.format("eyJ")
        + r"(?P<b>[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096})",
        "RFC 7519 (JSON Web Token) and RFC 7515 §7.1 (JWS compact serialization): three"
        " base64url parts, the header's '{\"' encoding as eyJ; gitleaks jwt",
    ),
    _shape(
        "mapbox token",
        "sk.eyJ",
        r"sk\.eyJ"
        + _NOT_AFTER.format(r"sk\.eyJ")
        + r"(?P<b>[A-Za-z0-9_-]{20,300}\.[A-Za-z0-9_-]{20,100})",
        "Mapbox docs, 'Access tokens': secret tokens sk. (public pk. and temporary tk."
        " are not secrets here)",
    ),
    _shape(
        "azure connection string",
        "AccountKey= SharedAccessKey=",
        r"(?:AccountKey|SharedAccessKey)=(?P<b>[A-Za-z0-9+/]{20,200}={0,2})",
        "Microsoft Learn, 'Configure Azure Storage connection strings' (AccountKey=) and"
        " the Service Bus and Event Hubs connection strings (SharedAccessKey=)",
        extent=Extent.VALUE,
    ),
    _shape(
        "azure sas token",
        "sig=",
        r"sig=(?P<b>[A-Za-z0-9%+/]{30,200}(?:%3D|=){0,2})",
        "Microsoft Learn, 'Grant limited access to Azure Storage resources using shared"
        " access signatures (SAS)': the sv= (signed version) and sig= (signature) fields",
        extent=Extent.SIGNATURE,
    ),
    _shape(
        "azure client secret",
        "Q~",
        r"Q~(?P<b>[A-Za-z0-9_~.-]{31,34})",
        "Microsoft Entra ID application client secrets: 3 characters, a digit, Q~, 31 to"
        " 34 more; gitleaks azure-ad-client-secret",
        lead=r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]\Z",
    ),
    _shape(
        "huggingface token",
        "hf_",
        r"hf_(?P<b>[A-Za-z0-9]{34,40})",
        "Hugging Face docs, 'User access tokens' (https://huggingface.co/docs/hub/"
        "security-tokens): hf_; gitleaks huggingface-access-token",
        random=True,
        separable=True,
    ),
    _shape(
        "digitalocean token",
        "_v1_",
        r"do[opr]_v1_(?P<b>[a-f0-9]{64})",
        "DigitalOcean tokens dop_v1_ (personal), doo_v1_ (OAuth), dor_v1_ (refresh) + 64"
        " hex; gitleaks digitalocean-pat, -access-token, -refresh-token",
        separable=True,
    ),
    _shape(
        "shopify token",
        "shp",
        r"shp(?:at|ca|pa|ss)_(?P<b>[a-fA-F0-9]{32})",
        "Shopify access tokens shpat_, shpca_, shppa_ and shared secrets shpss_ + 32 hex;"
        " gitleaks shopify-* rules",
        separable=True,
    ),
    _shape(
        "databricks token",
        "dapi",
        r"dapi(?P<b>[a-f0-9]{32})(?:-[0-9])?",
        "Databricks docs, personal access token authentication: dapi + 32 hex; gitleaks"
        " databricks-api-token",
        separable=True,
    ),
    _shape(
        "vault token",
        "hvs. hvb. hvr.",
        r"hv[sbr]\.(?P<b>[A-Za-z0-9_-]{24,300})",
        "HashiCorp Vault docs, 'Tokens' (token prefixes since Vault 1.10: hvs. service,"
        " hvb. batch, hvr. recovery); gitleaks vault-service-token, vault-batch-token",
    ),
    _shape(
        "terraform token",
        ".atlasv1.",
        r"\.atlasv1\.(?P<b>[A-Za-z0-9_=-]{60,100})",
        "HCP Terraform (Terraform Cloud) API tokens, 14 characters + .atlasv1. + 60 to 70;"
        " gitleaks hashicorp-tf-api-token",
        lead=r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\Z",
    ),
    _shape(
        "telegram bot token",
        ":AA",
        r":AA(?P<b>[A-Za-z0-9_-]{33})",
        "Telegram Bot API docs, 'Authorizing your bot' (https://core.telegram.org/bots/"
        "api): <bot id>:<35 characters>, which start AA; gitleaks telegram-bot-api-token",
        lead=r"(?:(?<=bot)|(?<![A-Za-z0-9]))[0-9]{8,10}\Z",
    ),
    _shape(
        "discord token",
        "",
        r"\.[A-Za-z0-9_-]{6}\.(?P<b>[A-Za-z0-9_-]{27,40})",
        "Discord bot tokens: the base64 of the bot's user id (M, N or O first), 6"
        " characters of timestamp, 27 or more of HMAC, dot-separated; trufflehog"
        " discordbottoken",
        lead=r"(?<![A-Za-z0-9])[MNO][A-Za-z0-9]{23,27}\Z",
        random=True,
    ),
    _shape(
        "linear key",
        "lin_",
        r"lin_(?:api|oauth)_(?P<b>[A-Za-z0-9]{40})",
        "Linear personal API keys lin_api_ + 40 characters (and OAuth tokens"
        " lin_oauth_); gitleaks linear-api-key",
        separable=True,
    ),
    _shape(
        "postman key",
        "PMAK-",
        r"PMAK-(?P<b>[a-f0-9]{24}-[a-f0-9]{34})",
        "Postman API keys, PMAK- + 24 hex - 34 hex; gitleaks postman-api-token",
    ),
    _shape(
        "age secret key",
        "AGE-SECRET-KEY-1",
        r"AGE-SECRET-KEY-1(?P<b>[0-9A-Z]{58})",
        "age format specification (C2SP age, https://age-encryption.org/v1): X25519"
        " identities, Bech32 with HRP AGE-SECRET-KEY-, upper case; gitleaks age-secret-key",
        separable=True,
    ),
    _shape(
        "sentry token",
        "sntry",
        r"sntry[su]_(?P<b>[A-Za-z0-9_+/=-]{40,400})",
        "Sentry auth tokens: organization tokens sntrys_, user tokens sntryu_; gitleaks"
        " sentry-org-token, sentry-user-token",
    ),
    _shape(
        "grafana token",
        "glc_",
        r"glc_(?P<b>[A-Za-z0-9_+/=-]{32,400})",
        "Grafana Cloud access policy tokens glc_; gitleaks grafana-cloud-api-token",
    ),
    _shape(
        "grafana token",
        "glsa_",
        r"glsa_(?P<b>[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})",
        "Grafana service account tokens glsa_ + 32 + _ + 8 hex; gitleaks"
        " grafana-service-account-token",
    ),
    _shape(
        "groq key",
        "gsk_",
        r"gsk_(?P<b>[A-Za-z0-9]{48,60})",
        "Groq API keys, gsk_ + 52 characters; trufflehog groq",
        separable=True,
    ),
    _shape(
        "xai key",
        "xai-",
        r"xai-(?P<b>[A-Za-z0-9]{60,100})",
        "xAI API keys, xai- + 80 characters; trufflehog xai",
        separable=True,
    ),
    _shape(
        "perplexity key",
        "pplx-",
        r"pplx-(?P<b>[A-Za-z0-9]{40,60})",
        "Perplexity API keys, pplx- + 48 characters; gitleaks perplexity-api-key",
        separable=True,
    ),
    _shape(
        "replicate token",
        "r8_",
        r"r8_(?P<b>[A-Za-z0-9]{37})",
        "Replicate API tokens, r8_ + 37 characters; trufflehog replicate",
        separable=True,
    ),
    _shape(
        "atlassian token",
        "ATATT3",
        r"ATATT3(?P<b>[A-Za-z0-9_=-]{150,250})",
        "Atlassian API tokens, ATATT3...; gitleaks atlassian-api-token (keyword atatt3)",
    ),
    _shape(
        "notion token",
        "ntn_",
        r"ntn_(?P<b>[A-Za-z0-9]{40,50})",
        "Notion integration tokens, ntn_ + 46 characters; gitleaks notion-api-token",
        separable=True,
    ),
    _shape(
        "notion token",
        "secret_",
        r"secret_(?P<b>[A-Za-z0-9]{43})",
        "Notion's older integration tokens, secret_ + 43 characters (a prefix common in"
        " code, so the body must look random)",
        random=True,
    ),
    _shape(
        "supabase token",
        "sbp_",
        r"sbp_(?P<b>[a-f0-9]{40})",
        "Supabase Management API access tokens, sbp_ + 40 characters; trufflehog supabasetoken",
        separable=True,
    ),
    _shape(
        "airtable token",
        "pat",
        r"pat[A-Za-z0-9]{14}\.(?P<b>[a-f0-9]{64})",
        "Airtable personal access tokens, pat + 14 . 64 hex; gitleaks"
        " airtable-personnal-access-token",
    ),
    _shape(
        "figma token",
        "figd_",
        r"figd_(?P<b>[A-Za-z0-9_-]{40,50})",
        "Figma personal access tokens, figd_; trufflehog figmapersonalaccesstoken (v2)",
    ),
    _shape(
        "heroku api key",
        "HRKU-",
        r"HRKU-(?P<b>[A-Za-z0-9_-]{40,80})",
        "Heroku API keys, HRKU- + 60 characters; gitleaks heroku-api-key-v2 (older keys"
        " are UUIDs, found as assigned secrets)",
    ),
    _shape(
        "mailgun key",
        "key-",
        r"key-(?P<b>[0-9a-f]{32})",
        "Mailgun private API keys, key- + 32 hex; gitleaks mailgun-private-api-token",
    ),
    _shape(
        "square token",
        "sq0atp- sq0csp-",
        r"sq0(?:atp|csp)-(?P<b>[0-9A-Za-z_-]{22,60})",
        "Square OAuth access tokens sq0atp- and application secrets sq0csp-; gitleaks"
        " square-access-token (sq0atp-)",
    ),
    _shape(
        "doppler token",
        "dp.",
        r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?P<b>[A-Za-z0-9]{40,44})",
        "Doppler docs, 'Auth Token Formats' (https://docs.doppler.com/docs/Auth-token-"
        "formats): dp.ct., dp.pt., dp.st., dp.sa., dp.scim., dp.audit. + 40 to 44",
    ),
    _shape(
        "facebook token",
        "EAA",
        r"EAA(?P<b>[A-Za-z0-9]{100,300})",
        "Meta Graph API access tokens, EAA + 100 or more characters; gitleaks"
        " facebook-page-access-token",
        random=True,
    ),
)
"""Each provider's shape, most specific first (an earlier shape wins an overlap)."""

# --- provider keys written with separators ------------------------------------------
# Source: how a key is written when it is read out, typed by hand or copied off a screen:
# in groups of three to eight joined by spaces or dashes (as licence keys and recovery
# codes are printed), or wrapped at a terminal's or editor's line width (a key broken
# over two lines of a log, an indented YAML value continued on the next line, a shell
# line continued with a backslash); issue 33's probe wrote "AKIA PIX6 EA6Q OM66 ZJOJ".
# The groups must be even (as wide as the second, the last no wider), so a run of prose
# words is not taken for a key.

GROUP_SEPARATOR = re.compile("[ \t\u00a0\u2009\u202f]|[-\u2010\u2011\u2013]")
"""One separator between the groups of a grouped key: a space (also no-break and thin
spaces), a tab, or a dash (hyphen-minus, hyphen, non-breaking hyphen, en dash)."""
GROUP = re.compile(r"[A-Za-z0-9_]{1,64}")
"""A group of a grouped key: letters, digits and ``_`` (a dash is a separator)."""
MIN_GROUP_CHARS = 3
MAX_GROUP_CHARS = 8
"""How wide the groups of a grouped key are: "AKIA PIX6 ..." is 4, a grouping of 3 to 8
is how keys are read out; wider groups are a key wrapped, not grouped."""
LINE_WRAP = re.compile(r"\\?\r?\n[ \t]{0,40}")
"""A line break inside a wrapped key: optionally after a shell line continuation
(``\\``), optionally followed by the next line's indentation."""
WRAPPED_LINE = re.compile(r"[A-Za-z0-9_+/=.-]{1,400}")
"""A line's worth of a wrapped key (a wrapped key keeps its own dashes and dots)."""
MAX_SEPARATED_CHARS = 400
"""A separated key is read at most this far from its prefix."""

# --- private keys -------------------------------------------------------------------
# Source: RFC 7468 (textual encodings of PKIX, PKCS and CMS structures) for "-----BEGIN
# <label>-----" ... "-----END <label>-----"; RFC 1421 for the Proc-Type and DEK-Info
# headers of encrypted PEM keys; OpenSSH's PROTOCOL.key for "OPENSSH PRIVATE
# KEY"; RFC 4880 §6.2 (OpenPGP armor) for "PGP PRIVATE KEY BLOCK".

PRIVATE_KEY = re.compile(r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----")
_LINE_BREAK = r"(?:[ \t]*(?:\r?\n|(?:\\r)?\\n))"
"""A line break, or one written as ``\\n`` inside a JSON or shell string."""
KEY_MATERIAL = re.compile(
    rf"{_LINE_BREAK}{{0,4}}"
    rf"(?:[A-Za-z][A-Za-z-]{{0,30}}:[^\r\n\\]{{0,200}}{_LINE_BREAK}{{1,4}}){{0,6}}"  # Proc-Type
    r"[ \t]*[A-Za-z0-9+/=]{16}"
)
"""What must follow a private key's header: headers, then 16 characters of base64."""
PEM_BEGIN = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,60})-----")
PEM_END = re.compile(r"-----END [A-Z0-9 ]{1,60}-----")

# --- passwords in URLs and on command lines -----------------------------------------

URL_USERINFO = re.compile(
    r"://(?P<user>[^\s:/?#@\[\]\"'<>]{0,128}):(?P<password>[^\s/?#@\"'<>\\]{1,256})@"
)
"""``scheme://user:password@host``. Source: RFC 3986 §3.2.1 (userinfo; the
``user:password`` form is deprecated but common in database URLs)."""
USER_FLAG = re.compile(
    r"-(?:u|-user)[ \t=]{1,4}[\"']?[^\s:\"'/@$]{1,64}:(?P<password>[^\s\"']{1,128})"
)
"""``curl -u user:password``, ``--user user:password``. Source: curl's manual, ``-u,
--user <user:password>``."""
CLIENT_FLAG = re.compile(
    r"\b(?:mysql|mysqladmin|mysqldump|mariadb)\b[^\n|;&]{0,120}?[ \t]-p"
    r"(?P<password>[^\s\"']{3,128})"
    r"|\bredis-cli\b[^\n|;&]{0,120}?[ \t]-a[ \t]+[\"']?(?P<auth>[^\s\"']{3,128})"
)
"""Database clients that take the password glued to ``-p`` (MySQL) or after ``-a``
(redis-cli). Source: the MySQL reference manual (``--password[=password]``,
``-p[password]``, no space) and redis-cli's documentation (``-a <password>``)."""

# --- authorization headers ----------------------------------------------------------
# Source: RFC 9110 §11.6.2 (Authorization), RFC 6750 (Bearer), RFC 7617 (Basic),
# RFC 7616 (Digest); Token, Bot, ApiKey and sso-key are the schemes of GitHub, Discord
# and GoDaddy's APIs among others.

AUTHORIZATION = re.compile(
    r"authorization(?P<header>[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|token|bot|digest|apikey|sso-key)[ \t]+)?)"
    r"|bearer[ \t]+"
)
"""An Authorization header or a bare Bearer, in lower-cased text."""
CREDENTIAL = re.compile(r"[A-Za-z0-9._~+/=:-]{8,2048}")
"""The credential after the scheme (RFC 6750's b64token, and Basic's base64)."""

# --- assigned secrets ---------------------------------------------------------------
# Source: the ways code, configuration and shell write a value to a name (assignments,
# YAML and JSON keys, .env and export lines, type-annotated Python, XML elements,
# --flags, the .netrc "machine/login/password" format of inetutils and curl) and prose,
# as sampled in tests/data/secrets/secret_texts.jsonl; the names that are not a secret's
# (max_tokens, primary_key, password_hash...) from tests/data/secrets/benign_texts.jsonl.

MAX_VALUE_CHARS = 300
"""Values are read at most this far (a longer secret still shows by its first part)."""

SECRET_NAME = re.compile(
    r"(?P<word>passphrase|password|passwd|passcode|pass|pwd|pw|secret|token|key"
    r"|credentials|credential|creds)"
    r"(?:[_.-](?:base|value|b64|base64|hex|raw|plain|plaintext))?"
    r"(?P<close>[\"'`\]\\]{0,3})(?P<gap>[ \t]{0,8})"
    r"(?:(?P<op>:=|=>|===|==|\?=|\+=|=|:|>)"
    r"|(?P<prose>(?:is|was)(?:[ \t]+set[ \t]+to)?[ \t]*:?(?=[ \t])))?"
    r"[ \t]{0,8}"
)
"""A secret word ending a key's name (lower-cased text), then how a value is given."""
VALUE = re.compile(
    rf"[rRbBuUfF]{{0,2}}\\?\"(?P<double>[^\"\n]{{0,{MAX_VALUE_CHARS}}})\""
    rf"|[rRbBuUfF]{{0,2}}\\?'(?P<single>[^'\n]{{0,{MAX_VALUE_CHARS}}})'"
    rf"|`(?P<back>[^`\n]{{0,{MAX_VALUE_CHARS}}})`"
    rf"|(?P<bare>[^\s\"'`,;<]{{1,{MAX_VALUE_CHARS}}})"
)
"""The value given: double, single or back quoted (with Python's string prefixes), or
bare."""
TYPE_ANNOTATION = re.compile(
    r"[ \t]*&?[A-Za-z_][\w.]{0,40}(?:\[[^\]\n]{0,40}\]{1,2})?"
    r"(?:[ \t]*\|[ \t]*[A-Za-z_][\w.]{0,40})?[ \t]*=(?![=>])[ \t]*"
)
"""``: str =`` between a name and its value (``password: str = "..."``)."""
OPTION = re.compile(r"[A-Za-z_][\w.-]*=[^=]")
"""A bare value that is itself an option (``--secret id=npmrc,src=...``)."""
NETRC_LOGIN = re.compile(r"\blogin\s{1,40}\S{1,200}\s{1,40}\Z")
"""What comes before ``password`` in a .netrc entry."""

PASSWORD_WORDS = frozenset({"passphrase", "password", "passwd", "passcode", "pass", "pwd", "pw"})
"""The secret words whose values are found as "password assignment"."""
QUALIFIED_WORDS = frozenset({"pass", "key"})
"""Words that name a secret only after a qualifier (``db_pass``, ``api_key``)."""
GLUE_NEEDS_BOUNDARY = frozenset({"pass", "pwd", "pw"})
"""Words that never end a longer word (``bypass``, ``compass``) unless camel-cased."""
KEY_QUALIFIERS = tuple(
    """
    api apps app secret private access signing sign encryption encrypt decryption
    master account client auth license licence subscription service deploy ssh consumer
    storage admin webhook shared hmac session jwt crypto cipher aes root ingest server
    partner merchant gpg pgp rsa tls ssl token write bot live personal developer sdk
    mgmt management cookie otp totp mfa
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""What may come just before ``key`` for the name to be a secret's (``api_key``)."""
NOT_SECRET_KEYS = frozenset(
    """
    public pub primary foreign cache sort partition hash range row composite unique
    natural lookup index dict map object s3 bucket redis idempotency routing
    translation i18n message group label order item hot short cut keyboard hotkey
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""Qualifiers that make an upper-case ``*_KEY`` variable something other than a secret."""
NOT_SECRET_TOKENS = tuple(
    """
    page next continuation pagination cursor sync resume cancel cancellation lexer
    parser eof start end special bos eos pad unk mask sep cls max min num input output
    prompt completion total stop word first last prev previous current
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""Qualifiers of ``token`` that name something other than a credential (LLM, paging)."""
AWS_SECRET = re.compile(r"[A-Za-z0-9/+]{40}")
"""An AWS secret access key: 40 base64 characters. Source: AWS IAM User Guide, 'Manage
access keys for IAM users'."""

# --- what a value must not be: placeholders, dummies, references --------------------
# Source: template and reference syntaxes (shell, Jinja/Ansible, Python %-format and
# f-strings, ERB, Helm, GitHub Actions ${{ }}, 1Password op://, Vault, AWS ARNs, SOPS
# ENC[...], vals ref+) and the dummy values of documentation and samples, as collected in
# tests/data/secrets/benign_texts.jsonl.

DUMMY_WORDS = frozenset(
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
"""Words of which a dummy value is made (``your_api_key_here``, ``admin123``)."""
MASK = re.compile(r"\*\*\*|xxx|\.\.\.|…|•|###", re.IGNORECASE)
"""A masked or elided value (``***``, ``xxxx``, ``sk-...``)."""
PLACEHOLDER = re.compile(
    r"\$\{|\$\(|\{\{|\}\}|<%|%>|\#\{|%\(|\{%|<[^<>]*>|\{[\w.]*\}"
    r"|\A(?:\$[A-Za-z_]|%\w+%\Z|[!*&<({\[]|[@:][A-Za-z_]\w*\Z|ENC\[|ref\+"
    r"|(?:op|vault|sm|akv|gsm|awssm|azkv|k8s)://"
    r"|(?:vault|env|file|ssm|secretsmanager|keyvault|arn|awskms|gcpkms):"
    r"|/|\.{1,2}/|~[/\\]|[A-Za-z]:\\)",
    re.IGNORECASE,
)
"""Template syntax anywhere, or a start that makes the value a reference, not a secret."""
CODE = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->|\?\.)[A-Za-z_$][\w$]*)*(?:\(|\[|\Z)")
"""A bare value that is an expression: ``settings.API_KEY``, ``getpass(``, ``os.environ[``."""
PUBLISHABLE_KEYS = ("pk_live_", "pk_test_", "pk.eyJ")
"""Stripe and Mapbox keys made to be shipped in web pages. Source: Stripe docs, 'API
keys' (publishable keys); Mapbox docs, 'Access tokens' (public tokens)."""

# --- high-entropy strings that are not secrets --------------------------------------

NOT_SECRET_BEFORE = re.compile(
    r"(?:(?:sha-?(?:1|224|256|384|512)|md5|h1|blake2[bs]?|xxh(?:32|64|128)?|crc32c?|etag"
    r"|digest|integrity|checksum|hash|nonce|(?:request|correlation|trace|span|cf|amz"
    r"|operation|event|message|execution|build|run|job|transaction|idempotency)[-_]?id(?:-2)?)"
    r"[\s:=\"'`]{0,3}|base64,|\bpk\.)\Z",
    re.IGNORECASE,
)
"""What a digest, an id of a request or event, inline content or a public Mapbox token
follows. Source: digest notations (OCI ``sha256:``, W3C Subresource Integrity
``sha512-``, Go's go.sum ``h1:``), tracing and request-id headers (W3C Trace Context,
``x-amz-request-id``, ``cf-ray``), RFC 2397 ``data:...;base64,`` URLs, as they occur in
tests/data/secrets/benign_texts.jsonl."""
DIGEST_PREFIX = re.compile(r"(?:sha(?:1|224|256|384|512)|md5)-", re.IGNORECASE)
"""A Subresource Integrity digest (``sha512-...``). Source: W3C Subresource Integrity."""
IPFS_ID = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}")
"""An IPFS content id. Source: the CIDv0 form, a base58btc sha2-256 multihash (Qm...)."""
PUBLIC_STARTS = (
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
"""Base64 of content and of public keys: high entropy, no secret. Source: each format's
magic number in base64 (PNG, JPEG, GIF, RIFF, PDF, zip, gzip signatures) and the SSH
public key wire format (RFC 4253 §6.6: a length-prefixed key type name)."""
SOPS_VALUE = "ENC["
"""A sops-encrypted value (``ENC[AES256_GCM,data:...,iv:...,tag:...]``): ciphertext.
Source: getsops/sops, encrypted file format."""
