//! Plan reader (stub: being written).
