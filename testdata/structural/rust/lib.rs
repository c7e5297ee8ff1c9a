use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub count: u32,
}

impl Item {
    pub fn new(name: &str, count: u32) -> Self {
        Item { name: name.to_string(), count }
    }

    fn double(&self) -> u32 {
        self.count * 2
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} x{}", self.name, self.count)
    }
}

pub fn tally(items: &[Item]) -> HashMap<String, u32> {
    let mut m = HashMap::new();
    for it in items {
        *m.entry(it.name.clone()).or_insert(0) += it.count;
    }
    m
}

pub fn parse(s: &str) -> Result<u32, String> {
    let n = s.trim().parse::<u32>().map_err(|e| e.to_string())?;
    if n == 0 {
        return Err("zero".to_string());
    }
    Ok(n)
}

fn risky(v: Option<u32>) -> u32 {
    let a = v.unwrap();
    let b = v.expect("value");
    match v {
        Some(x) if x > 10 => x,
        Some(x) => x + a + b,
        None => panic!("none"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_works() {
        assert_eq!(parse("3"), Ok(3));
        assert!(parse("0").is_err());
        let item = Item::new("a", 2);
        println!("{}", item);
        println!("{:?}", item.double());
    }
}
