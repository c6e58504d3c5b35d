//! Plain-text input: bytes to captions, streamed in bounded chunks.
