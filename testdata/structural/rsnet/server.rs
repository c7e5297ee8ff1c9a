//! A small line-oriented protocol server.
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::net::{TcpListener, TcpStream};

const BANNER: &[u8] = b"proto/1.0
  ready
";

#[derive(Debug, Default)]
pub struct Store {
    values: HashMap<String, String>,
    hits: u64,
}

impl Store {
    pub fn new() -> Self {
        Store::default()
    }

    pub fn get(&mut self, key: &str) -> Option<&String> {
        self.hits += 1;
        self.values.get(key)
    }

    pub fn set(&mut self, key: String, value: String) -> Option<String> {
        self.values.insert(key, value)
    }
}

pub enum Command {
    Get(String),
    Set(String, String),
    Quit,
}

pub fn parse(line: &str) -> Result<Command, String> {
    let mut parts = line.split_whitespace();
    match parts.next() {
        Some("GET") => {
            let key = parts.next().ok_or("GET needs a key")?;
            Ok(Command::Get(key.to_string()))
        }
        Some("SET") => {
            let key = parts.next().ok_or("SET needs a key")?;
            let value = parts.next().ok_or("SET needs a value")?;
            Ok(Command::Set(key.to_string(), value.to_string()))
        }
        Some("QUIT") => Ok(Command::Quit),
        other => Err(format!("unknown command {:?}", other)),
    }
}

fn handle(stream: TcpStream, store: &mut Store) -> io::Result<()> {
    let mut out = stream.try_clone()?;
    out.write_all(BANNER)?;
    let reader = io::BufReader::new(stream);
    for line in reader.lines() {
        let line = line?;
        match parse(&line) {
            Ok(Command::Get(k)) => {
                let v = store.get(&k).cloned().unwrap_or_default();
                writeln!(out, "{}", v)?;
            }
            Ok(Command::Set(k, v)) => {
                store.set(k, v);
                out.write_all(b"OK
")?;
            }
            Ok(Command::Quit) => break,
            Err(e) => {
                writeln!(out, "ERR {}", e)?;
            }
        }
    }
    Ok(())
}

pub fn serve(addr: &str) -> io::Result<()> {
    let listener = TcpListener::bind(addr)?;
    let mut store = Store::new();
    for stream in listener.incoming() {
        let stream = stream.unwrap();
        if let Err(e) = handle(stream, &mut store) {
            eprintln!("connection failed: {}", e);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_get() {
        let cmd = parse("GET a").unwrap();
        match cmd {
            Command::Get(k) => assert_eq!(k, "a"),
            _ => panic!("not a get"),
        }
    }

    #[test]
    fn parses_set() {
        let cmd = parse("SET a 1").unwrap();
        assert!(matches!(cmd, Command::Set(_, _)));
    }

    #[test]
    fn store_counts_hits() {
        let mut s = Store::new();
        s.set("k".into(), "v".into());
        assert_eq!(s.get("k").unwrap(), "v");
        assert_eq!(s.hits, 1);
    }
}
