"""Reading the item and its workspace: the request's snapshot, what the statement says, what it is about."""
