//! A widget's figures as a small table, announced to screen readers when
//! they change.

use yew::prelude::*;

/// One row: its label, a stable name for tests (`data-figure`), and one value per column.
pub struct Row {
    pub label: String,
    pub field: &'static str,
    pub values: Vec<String>,
}

pub fn row(label: impl Into<String>, field: &'static str, values: Vec<String>) -> Row {
    Row {
        label: label.into(),
        field,
        values,
    }
}

/// `head` names the columns (empty for a single unnamed column).
pub fn figures(head: &[String], rows: Vec<Row>) -> Html {
    html! {
        <table class="figures" aria-live="polite">
            if !head.is_empty() {
                <thead>
                    <tr><th scope="col"><span class="visually-hidden">{ "Cifra" }</span></th>{ for head.iter().map(|l| html! { <th scope="col">{ l }</th> }) }</tr>
                </thead>
            }
            <tbody>
                { for rows.into_iter().map(|r| html! {
                    <tr>
                        <th scope="row">{ r.label }</th>
                        { for r.values.into_iter().map(|v| html! { <td data-figure={r.field}>{ v }</td> }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
