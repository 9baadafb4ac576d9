//! ward check (being written).
