"""What people do around games: ratings (the math, and what a rated game changes), seeks,
tournaments and their pairing, bot accounts (names, accounts and moderation: ``identity/``)."""
