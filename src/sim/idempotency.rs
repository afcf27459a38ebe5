//! The idempotency key: a retried POST that does not publish twice.
//!
//! Why: when a call times out, the caller cannot tell whether the request
//! never arrived, is still running, or was done and only the answer was
//! lost. Retrying is safe only if doing the operation twice leaves the same
//! result as doing it once. For a POST that creates something, the client
//! makes it so: it generates one key per *operation* (not per attempt) and
//! sends it with every attempt; the server stores each key with the answer
//! it gave and, when a key comes back, returns that answer without doing the
//! work again.
//!
//! ```
//! use sensei_lab::sim::idempotency::Server;
//! let mut s = Server::default();
//! let first = s.publish("Tenis naranjas", Some("k-1"));
//! let retry = s.publish("Tenis naranjas", Some("k-1"));
//! assert_eq!(first, retry);
//! assert_eq!(s.stored().len(), 1);
//! ```

use super::rng::PyRandom;
use std::collections::HashMap;

/// The lesson's server: what it stored, and the answer given for each key.
#[derive(Clone, Debug, Default)]
pub struct Server {
    posts: Vec<String>,
    done: HashMap<String, String>,
}

impl Server {
    /// `publicar(titulo, llave)`: publishes unless the key was seen before.
    pub fn publish(&mut self, title: &str, key: Option<&str>) -> String {
        if let Some(answer) = key.and_then(|k| self.done.get(k)) {
            return answer.clone();
        }
        self.posts.push(title.to_string());
        let answer = format!("publicación #{}", self.posts.len());
        if let Some(k) = key {
            self.done.insert(k.to_string(), answer.clone());
        }
        answer
    }

    pub fn stored(&self) -> &[String] {
        &self.posts
    }

    pub fn clear(&mut self) {
        self.posts.clear();
    }
}

/// A version-4 UUID drawn from the seeded RNG (the lesson's program uses
/// `uuid.uuid4()`; it never prints it, so any fresh key will do).
pub fn uuid4(rng: &mut PyRandom) -> String {
    let mut b = [0u8; 16];
    for chunk in b.chunks_mut(4) {
        chunk.copy_from_slice(&rng.next_u32().to_le_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// `cliente(titulo, con_llave)`: publishes, the answer is lost, and the
/// client retries with the same key (or with none).
pub fn client(server: &mut Server, title: &str, with_key: bool, rng: &mut PyRandom) -> String {
    let key = with_key.then(|| uuid4(rng));
    server.publish(title, key.as_deref()); // published, but the answer is lost
    server.publish(title, key.as_deref()) // the retry carries the same key
}

/// Python's `repr` of a list of strings: `['a', 'b']`.
pub fn py_repr_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| py_repr_str(s)).collect();
    format!("[{}]", parts.join(", "))
}

/// Python's `repr` of a string (quote choice and escapes as CPython does).
pub fn py_repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::new();
    out.push(quote);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The lesson's program, run by the core: its two printed lines.
pub fn lesson_program_output(title: &str, seed: u32) -> [String; 2] {
    let mut rng = PyRandom::new(seed);
    let mut server = Server::default();
    let without = client(&mut server, title, false, &mut rng);
    let a = format!("sin llave: {} · guardadas: {}", without, py_repr_list(server.stored()));
    server.clear();
    let with = client(&mut server, title, true, &mut rng);
    let b = format!("con llave: {} · guardadas: {}", with, py_repr_list(server.stored()));
    [a, b]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_lines() {
        let [a, b] = lesson_program_output("Tenis naranjas", 7);
        assert_eq!(
            a,
            "sin llave: publicación #2 · guardadas: ['Tenis naranjas', 'Tenis naranjas']"
        );
        assert_eq!(b, "con llave: publicación #1 · guardadas: ['Tenis naranjas']");
    }

    #[test]
    fn repr_like_python() {
        // python3 -c "print(repr(\"it's\"), repr('a\"b'), repr('x\\\\y'))"
        assert_eq!(py_repr_str("it's"), "\"it's\"");
        assert_eq!(py_repr_str("a\"b"), "'a\"b'");
        assert_eq!(py_repr_str("x\\y"), "'x\\\\y'");
    }

    #[test]
    fn a_key_per_attempt_does_not_help() {
        let mut s = Server::default();
        s.publish("x", Some("k1"));
        s.publish("x", Some("k2"));
        assert_eq!(s.stored().len(), 2);
    }

    #[test]
    fn uuid_shape() {
        let u = uuid4(&mut PyRandom::new(1));
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
    }
}
