//! Report rendering (stub: being written).
