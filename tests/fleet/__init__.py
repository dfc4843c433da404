"""The fleet tests (issue 17): object storage, Ray, the findings stream, history import."""
