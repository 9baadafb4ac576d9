//! Page-load benchmark of `ward serve` (not a timed test): builds a history of ROOTS roots ×
//! RUNS runs (the fixture), serves it on 127.0.0.1, and times whole HTTP requests (connect,
//! request, full response) to the overview (its first page, a later one, a filter), a timeline,
//! the open findings and the overview's JSON (a page of it, and whole), ROUNDS times each after
//! one warm-up; prints median, p95 and max per page.
//!
//! `cargo run --release -p ward-serve --example bench_serve -- [DB] [ROOTS] [RUNS] [ROUNDS]`
//! (defaults: a temporary SQLite file, 1000, 100, 20). DB may be a postgres:// URL of an empty
//! database; an existing fixture of the same size is reused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use ward_store::{Location, Store};

fn fetch(addr: SocketAddr, path: &str) -> (u16, usize) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let status = String::from_utf8_lossy(&out[..12.min(out.len())])
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, out.len())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tmp = tempfile::tempdir().unwrap();
    let db = args
        .first()
        .cloned()
        .unwrap_or_else(|| tmp.path().join("bench.sqlite").display().to_string());
    let roots: usize = args.get(1).map_or(1000, |s| s.parse().unwrap());
    let runs: usize = args.get(2).map_or(100, |s| s.parse().unwrap());
    let rounds: usize = args.get(3).map_or(20, |s| s.parse().unwrap());
    let location = Location::parse(&db, None, "DB").unwrap();
    {
        let mut s = Store::open_location(&location).unwrap();
        let have = s.runs(runs + 1).unwrap().len();
        if have == 0 {
            let t = Instant::now();
            ward_serve::fixture::write(&mut s, &ward_serve::fixture::root_names(roots), runs)
                .unwrap();
            eprintln!(
                "wrote {roots} roots x {runs} runs ({} outcomes) to {location} in {:.1} s",
                roots * runs,
                t.elapsed().as_secs_f64()
            );
        } else {
            eprintln!("reusing the history in {location} ({have} runs)");
        }
    }
    let listener = ward_serve::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let l = location.clone();
    let app = ward_serve::App::new(
        Box::new(move || Store::open_location(&l)),
        ward_serve::views::Layers::default(),
        None,
        ward_serve::Hosts::for_listen(addr, &[]),
        ward_time::Clock::System,
    );
    std::thread::spawn(move || ward_serve::serve(listener, app));
    let pages = [
        "/",
        "/?page=50",
        "/?status=drift",
        "/root?name=fleet%2Froot0500",
        "/findings",
        "/api/v1/overview?per_page=100",
        "/api/v1/overview",
    ];
    println!("| page | bytes | median | p95 | max |");
    println!("|---|---:|---:|---:|---:|");
    for page in pages {
        let (status, bytes) = fetch(addr, page);
        assert_eq!(status, 200, "{page}");
        let mut times: Vec<Duration> = (0..rounds)
            .map(|_| {
                let t = Instant::now();
                let (status, _) = fetch(addr, page);
                assert_eq!(status, 200);
                t.elapsed()
            })
            .collect();
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p95 = times[(times.len() * 95 / 100).min(times.len() - 1)];
        println!(
            "| `{page}` | {bytes} | {:.1} ms | {:.1} ms | {:.1} ms |",
            ms(times[times.len() / 2]),
            ms(p95),
            ms(times[times.len() - 1])
        );
    }
}
