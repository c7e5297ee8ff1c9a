// A settings reader in the 2015 edition, where errors travel with try!.
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader};

pub struct Settings {
    values: HashMap<String, String>,
}

impl Settings {
    pub fn load(path: &str) -> io::Result<Settings> {
        let file = try!(File::open(path));
        let reader = BufReader::new(file);
        let mut values = HashMap::new();
        for line in reader.lines() {
            let line = try!(line);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            match trimmed.find('=') {
                Some(at) => {
                    let key = trimmed[..at].trim().to_string();
                    let value = try!(parse_value(&trimmed[at + 1..]));
                    values.insert(key, value);
                }
                None => return Err(io::Error::new(io::ErrorKind::InvalidData, "no '='")),
            }
        }
        Ok(Settings { values: values })
    }

    pub fn get(&self, key: &str) -> Option<&String> {
        self.values.get(key)
    }

    pub fn boxed(self) -> io::Result<Box<Settings>> {
        Ok(Box::new(try!(self.checked())))
    }

    fn checked(self) -> io::Result<Settings> {
        if self.values.contains_key("") {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "empty key"));
        }
        Ok(self)
    }
}

fn parse_value(raw: &str) -> io::Result<String> {
    let value = raw.trim();
    Some(try!(unquote(value))).ok_or_else(|| io::Error::new(io::ErrorKind::Other, "none"))
}

fn unquote(s: &str) -> io::Result<String> {
    let inner = s.trim_matches('"');
    Ok(inner.to_string())
}
