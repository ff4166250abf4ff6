"""Epochs' outside world: the game service, storage, Discord and the terminal."""
