"""The prizes' pages, one module per area: the console's prize list, lot and payout
print (``prizes``)."""
