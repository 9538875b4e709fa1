"""Game-agnostic table server and client: asyncio TCP, msgpack frames, zeroconf discovery."""
