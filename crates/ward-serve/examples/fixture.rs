//! Writes the fixture history (`ward_serve::fixture`) to a SQLite file or a PostgreSQL URL:
//! `cargo run -p ward-serve --example fixture -- DB ROOTS RUNS`. The root names include one
//! that is HTML (`<script>alert(1)</script>`), which every page must show as text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [db, roots, runs] = &args[..] else {
        panic!("usage: fixture DB ROOTS RUNS");
    };
    let roots: usize = roots.parse().unwrap();
    let runs: usize = runs.parse().unwrap();
    let location = ward_store::Location::parse(db, None, "DB").unwrap();
    let mut store = ward_store::Store::open_location(&location).unwrap();
    let names = ward_serve::fixture::root_names(roots);
    ward_serve::fixture::write(&mut store, &names, runs).unwrap();
    eprintln!("wrote {roots} roots x {runs} runs to {location}");
}
