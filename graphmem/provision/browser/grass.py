"""Style sheets (``.grass``) as Neo4j Browser 5.24 parses them."""

from __future__ import annotations


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Parses a style sheet as Browser 5.24 does (its ``parseGrass``, transcribed).

    Braces inside quotes are kept, quotes dropped; a declaration counts only when it
    has exactly one ``:``.
    """
    blocks: dict[str, str] = {}
    quoted = in_block = nested = False
    selector = body = ""
    for char in text:
        if char in "'\"":
            quoted = not quoted
            continue
        if char == "{" and not quoted:
            nested, in_block = (True, True) if in_block else (nested, True)
            continue
        if char == "}" and not quoted:
            if nested:
                nested = False
            else:
                in_block, blocks[selector], selector, body = False, body, "", ""
            continue
        if in_block:
            body += char
        elif not char.isspace():
            selector += char
    parsed: dict[str, dict[str, str]] = {}
    for key, block in blocks.items():
        pairs = [part.split(":") for part in block.split(";")]
        parsed[key] = {pair[0].strip(): pair[1].strip() for pair in pairs if len(pair) == 2}
    return parsed
