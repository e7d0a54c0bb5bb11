"""Value added tax."""

from decimal import Decimal

RATE = Decimal("0.20")


def vat(net: Decimal) -> Decimal:
    """The VAT on a net amount."""
    return net * RATE
