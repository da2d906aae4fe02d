"""What a suggestion must pass before it is offered: sanitising, admission, self-check, citing, verification."""
