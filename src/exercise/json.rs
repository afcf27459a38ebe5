//! Just enough JSON for what the browser stores ([`super::progress`]).
//!
//! Why not serde_json: nothing else in the browser build uses it, and putting
//! progress back on it (tried in session 16, with its derive) costs 14,544
//! bytes gzipped of the first load (docs/PERFORMANCE.md, «First load»; the
//! ≈ 2 KB measured in session 4 was this module against the derive code
//! alone, with serde_json still in the build). This reads any JSON
//! (nesting bounded, so hostile text cannot exhaust the stack), keeps numbers
//! as their text (the caller says which integers it accepts), and writes
//! what serde_json writes for the same data, so what students saved before
//! still loads; a test compares the two.
//!
//! ```
//! use sensei_lab::exercise::json::{parse, Json};
//! let v = parse(r#"{"a": [1, "dos\n"], "b": true}"#).unwrap();
//! assert_eq!(v.get("b"), Some(&Json::Bool(true)));
//! assert_eq!(v.to_string(), r#"{"a":[1,"dos\n"],"b":true}"#);
//! ```

use std::fmt;

/// How deep arrays and objects may nest.
pub const MAX_DEPTH: usize = 32;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number, as written.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    /// Members in order (a repeated key keeps its last value, as serde_json does).
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A non-negative integer that fits in a `u32`, written without sign, fraction or exponent.
    pub fn as_u32(&self) -> Option<u32> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Writes a JSON string literal, escaped as serde_json escapes it.
pub fn write_str(out: &mut impl fmt::Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '\u{8}' => out.write_str("\\b")?,
            '\u{c}' => out.write_str("\\f")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
            Json::Num(n) => f.write_str(n),
            Json::Str(s) => write_str(f, s),
            Json::Arr(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    v.fmt(f)?;
                }
                f.write_str("]")
            }
            Json::Obj(members) => {
                f.write_str("{")?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_str(f, k)?;
                    f.write_str(":")?;
                    v.fmt(f)?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Parses one JSON value (surrounded by whitespace only).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("text after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        format!("{what} at byte {}", self.i)
    }

    fn ws(&mut self) {
        while self
            .s
            .get(self.i)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("unexpected character"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deep"));
        }
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.err("unexpected end")),
            Some(b'n') => self.word("null", Json::Null),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.err("expected «,» or «]»"));
                        }
                    }
                }
                Ok(Json::Arr(items))
            }
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.ws();
                        if self.s.get(self.i) != Some(&b'"') {
                            return Err(self.err("expected a key"));
                        }
                        let k = self.string()?;
                        if !self.eat(b':') {
                            return Err(self.err("expected «:»"));
                        }
                        members.push((k, self.value(depth + 1)?));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.err("expected «,» or «}»"));
                        }
                    }
                }
                Ok(Json::Obj(members))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    /// A number as JSON writes it: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let from = p.i;
            while p.s.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i > from
        };
        self.eat_byte(b'-');
        if self.s.get(self.i) == Some(&b'0') {
            self.i += 1;
        } else if !digits(self) {
            return Err(self.err("bad number"));
        }
        if self.eat_byte(b'.') && !digits(self) {
            return Err(self.err("bad number"));
        }
        if self.eat_byte(b'e') || self.eat_byte(b'E') {
            let _ = self.eat_byte(b'+') || self.eat_byte(b'-');
            if !digits(self) {
                return Err(self.err("bad number"));
            }
        }
        Ok(Json::Num(self.text[start..self.i].to_string()))
    }

    fn eat_byte(&mut self, b: u8) -> bool {
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .text
            .get(self.i..self.i + 4)
            .ok_or_else(|| self.err("bad escape"))?;
        let v = u32::from_str_radix(h, 16).map_err(|_| self.err("bad escape"))?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            // Copy the run up to the next quote, backslash or control character.
            let from = self.i;
            while self
                .s
                .get(self.i)
                .is_some_and(|b| !matches!(b, b'"' | b'\\' | 0..=0x1f))
            {
                self.i += 1;
            }
            out.push_str(&self.text[from..self.i]);
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let e = *self.s.get(self.i).ok_or_else(|| self.err("bad escape"))?;
                    self.i += 1;
                    out.push(match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi) {
                                // A surrogate pair.
                                if !(self.eat_byte(b'\\') && self.eat_byte(b'u')) {
                                    return Err(self.err("lone surrogate"));
                                }
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return Err(self.err("lone surrogate"));
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.err("lone surrogate"))?
                        }
                        _ => return Err(self.err("bad escape")),
                    });
                }
                _ => return Err(self.err("unterminated string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes() {
        let v = parse(" {\"x\": [null, false, -1.5e3, \"\\u00e9\\ud83d\\ude00\\/\"], \"x\": 2} ").unwrap();
        assert_eq!(v.get("x").and_then(Json::as_u32), Some(2));
        let Json::Obj(m) = &v else { panic!() };
        assert_eq!(m[0].1.to_string(), "[null,false,-1.5e3,\"é😀/\"]");
        assert_eq!(Json::Str("a\"\\\u{1}\n".into()).to_string(), r#""a\"\\\u0001\n""#);
    }

    #[test]
    fn refuses_what_is_not_json() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "01",
            "1.",
            "-",
            "\"\\x\"",
            "\"\\ud800\"",
            "tru",
            "1 2",
            "{a:1}",
            "\"\u{1}\"",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        // Nesting is bounded, so deep text is refused rather than overflowing the stack.
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).unwrap_err().contains("deep"));
        assert!(parse(&format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH))).is_ok());
    }

    #[test]
    fn integers_only_where_asked() {
        for (text, want) in [
            ("7", Some(7)),
            ("4294967295", Some(u32::MAX)),
            ("4294967296", None),
            ("-1", None),
        ] {
            assert_eq!(parse(text).unwrap().as_u32(), want, "{text}");
        }
        assert_eq!(parse("1.0").unwrap().as_u32(), None);
        assert_eq!(parse("1e2").unwrap().as_u32(), None);
    }
}
