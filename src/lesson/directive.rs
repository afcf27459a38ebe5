//! `::name{key="value" other=value}`: one directive on one line.

/// A directive: its name and its attributes, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub name: String,
    pub attrs: Vec<(String, String)>,
}

impl Directive {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// Parses `::name{…}` (the leading `::` included). Errors say what is wrong.
pub fn parse_directive_line(line: &str) -> Result<Directive, String> {
    let rest = line.trim().strip_prefix("::").ok_or("a directive starts with «::»")?;
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..name_end];
    if name.is_empty() {
        return Err("a directive needs a name, as in «::widget{id=\"herd\"}»".into());
    }
    let rest = rest[name_end..].trim();
    if rest.is_empty() {
        return Ok(Directive {
            name: name.into(),
            attrs: Vec::new(),
        });
    }
    let inner = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .ok_or_else(|| format!("the attributes of «::{name}» go between braces"))?;
    let mut attrs = Vec::new();
    let mut chars = inner.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        if chars.next() != Some('=') || key.is_empty() {
            return Err(format!("«::{name}»: expected key=value, found «{key}»"));
        }
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => value.extend(chars.next()),
                    Some(c) => value.push(c),
                    None => return Err(format!("«::{name}»: the value of «{key}» has no closing quote")),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                value.push(c);
                chars.next();
            }
        }
        if attrs.iter().any(|(k, _): &(String, String)| *k == key) {
            return Err(format!("«::{name}»: «{key}» appears twice"));
        }
        attrs.push((key, value));
    }
    Ok(Directive {
        name: name.into(),
        attrs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_attributes() {
        let d = parse_directive_line("::program{src=\"manada.py\" output=herd}").unwrap();
        assert_eq!(d.name, "program");
        assert_eq!(d.get("src"), Some("manada.py"));
        assert_eq!(d.get("output"), Some("herd"));
        let d = parse_directive_line("::details{summary=\"Ver \\\"la\\\" solución\"}").unwrap();
        assert_eq!(d.get("summary"), Some("Ver \"la\" solución"));
    }

    #[test]
    fn refuses_malformed() {
        for bad in [
            "::",
            "::{x=1}",
            "::w{x}",
            "::w{x=\"1}",
            "::w{x=1 x=2}",
            "::w x=1",
            "widget",
        ] {
            assert!(parse_directive_line(bad).is_err(), "{bad}");
        }
    }
}
