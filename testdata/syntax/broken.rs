fn good() -> i32 {
    1
}

fn bad(x: i32) -> i32 {
    let y = x +;
    y
}

struct Fine {
    a: u8,
}
