//! One of the lesson's programs, shown as code, and under it what it
//! prints, computed by the lab's own core for the same inputs.

use crate::sim::{herd, idempotency};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ProgramListingProps {
    pub slug: String,
    pub src: String,
    pub output: String,
}

/// What the program prints, computed by the core.
pub fn program_output(output: &str) -> Vec<String> {
    match output {
        "herd" => herd::lesson_program_output().to_vec(),
        "idempotency" => {
            idempotency::lesson_program_output(idempotency::LESSON_TITLE, idempotency::LESSON_SEED).to_vec()
        }
        _ => Vec::new(),
    }
}

#[component]
pub fn ProgramListing(props: &ProgramListingProps) -> Html {
    let source = crate::lesson::program_source(&props.slug, &props.src).unwrap_or_default();
    let lines = use_memo(props.output.clone(), |o| program_output(o));
    html! {
        <figure class="program" data-program={props.src.clone()}>
            <figcaption><span class="file">{ &props.src }</span>{ " · Python" }</figcaption>
            <pre class="code-block" data-lang="python"><code>{ for source.lines().map(highlight_line) }</code></pre>
            <div class="program-output">
                <div class="output-label">{ "Salida, calculada por el núcleo del laboratorio (Rust) con las mismas entradas:" }</div>
                <pre class="output" data-output={props.output.clone()}>{ for lines.iter().map(|l| html! { <>{ l }{ "\n" }</> }) }</pre>
            </div>
        </figure>
    }
}

/// A line of Python with its comment set apart.
fn highlight_line(line: &str) -> Html {
    let mut quote: Option<char> = None;
    let mut split = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => {
                split = Some(i);
                break;
            }
            _ => {}
        }
    }
    match split {
        Some(i) => html! { <>{ &line[..i] }<span class="comment">{ &line[i..] }</span>{ "\n" }</> },
        None => html! { <>{ line }{ "\n" }</> },
    }
}
