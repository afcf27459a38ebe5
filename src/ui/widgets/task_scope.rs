//! What a widget and its tasks share: the tasks the lesson places after it,
//! the widget's values (registered by `use_params`, so a task can read the
//! state reached and put its own start), whether the results are hidden
//! while a prediction is pending, and a request to play the run from its
//! start once one is committed (read by the `Player`).

use crate::exercise::task::{self, Figures, Task};
use crate::ui::hooks::use_params::ValuesState;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The tasks of one widget, in the lesson's order, with their text (its
/// markdown runs, compiled).
pub type Tasks = Rc<Vec<(Task, &'static [&'static str])>>;

#[derive(Clone)]
pub struct TaskCtx {
    pub slug: String,
    pub tasks: Tasks,
    /// The task whose prediction is pending: the widget's results are hidden.
    pub veiled: Option<usize>,
    pub set_veiled: Callback<Option<usize>>,
    /// How many times a committed prediction asked the run to play.
    pub play: u32,
    pub request_play: Callback<()>,
    /// The widget's values, as its `use_params` last rendered them.
    pub remote: Rc<RefCell<Option<ValuesState>>>,
}

impl PartialEq for TaskCtx {
    fn eq(&self, o: &Self) -> bool {
        self.slug == o.slug
            && Rc::ptr_eq(&self.tasks, &o.tasks)
            && self.veiled == o.veiled
            && self.play == o.play
            && Rc::ptr_eq(&self.remote, &o.remote)
    }
}

#[derive(Properties, PartialEq)]
pub struct TaskScopeProps {
    /// What the widget's scenario offers its tasks (it names the widget).
    pub figures: Figures,
    pub children: Html,
}

/// The tasks of the widget of `figures` in the lesson being read (or, in a
/// piece's own page without one, in the first lesson that has any), as the
/// build read them: no lesson is parsed, and the widget's code reaches no
/// other scenario.
fn tasks_of(slug: &str, figures: Figures) -> (String, Vec<(Task, &'static [&'static str])>) {
    let of = |lesson: &str| -> Vec<(Task, &'static [&'static str])> {
        crate::lesson::task_sources()
            .iter()
            .filter(|t| t.slug == lesson && t.attrs.contains(&("widget", figures.widget)))
            .filter_map(|t| {
                task::parse_with(&t.directive(), figures)
                    .ok()
                    .map(|task| (task, t.text))
            })
            .collect()
    };
    if crate::lesson::exists(slug) {
        return (slug.to_string(), of(slug));
    }
    crate::lesson::task_sources()
        .iter()
        .find(|t| t.attrs.contains(&("widget", figures.widget)))
        .map(|t| (t.slug.to_string(), of(t.slug)))
        .unwrap_or_default()
}

#[component]
pub fn TaskScope(props: &TaskScopeProps) -> Html {
    let slug = use_context::<crate::ui::route::LessonSlug>()
        .map(|s| s.0)
        .unwrap_or_default();
    let found = use_memo((slug, props.figures), |(slug, f)| tasks_of(slug, *f));
    let tasks = use_memo(found.clone(), |f| f.1.clone());
    let veiled = use_state_eq(|| None::<usize>);
    let play = use_state_eq(|| 0u32);
    let remote = use_mut_ref(|| None::<ValuesState>);
    let ctx = TaskCtx {
        slug: found.0.clone(),
        tasks: tasks.clone(),
        veiled: *veiled,
        set_veiled: {
            let v = veiled.clone();
            Callback::from(move |i| v.set(i))
        },
        play: *play,
        request_play: {
            let p = play.clone();
            Callback::from(move |_| p.set(*p + 1))
        },
        remote,
    };
    html! {
        <ContextProvider<TaskCtx> context={ctx}>{ props.children.clone() }</ContextProvider<TaskCtx>>
    }
}
