"""Invoices: lines of amounts and their total."""

from decimal import ROUND_HALF_UP, Decimal

from billing.tax import vat


class Invoice:
    """An invoice: its lines, as strings of decimal amounts."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = [Decimal(line) for line in lines]

    def total(self) -> Decimal:
        """The sum with VAT, rounded half-up to cents."""
        net = sum(self.lines, Decimal(0))
        return (net + vat(net)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
