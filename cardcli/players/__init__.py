"""Built-in players that think: they follow the game from the same protocol lines a bot gets.

A player here sees exactly what an external bot would (the match header, the events of its
seat, the requests), so it can never use hidden information, and any of them could be shipped
as a standalone bot unchanged.
"""
