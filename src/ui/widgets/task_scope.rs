//! What a widget and its tasks share: the tasks the lesson places after it,
//! the widget's values (registered by `use_params`, so a task can read the
//! state reached and put its own start), whether the results are hidden
//! while a prediction is pending, and a request to play the run from its
//! start once one is committed (read by the `Player`).

use crate::exercise::task::{self, Task};
use crate::lesson::Block;
use crate::ui::hooks::use_params::ValuesState;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The tasks of one widget, in the lesson's order, with their text.
pub type Tasks = Rc<Vec<(Task, Vec<Block>)>>;

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
    pub widget: AttrValue,
    pub children: Html,
}

/// The tasks of `widget` in the lesson being read (or, in a piece's own
/// page without one, in the first lesson that has any).
fn tasks_of(slug: &str, widget: &str) -> (String, Vec<(Task, Vec<Block>)>) {
    let of = |l: &crate::lesson::Lesson| -> Vec<(Task, Vec<Block>)> {
        task::of_lesson(l)
            .into_iter()
            .filter(|(t, _)| t.widget == widget)
            .collect()
    };
    if let Some(l) = crate::lesson::find(slug) {
        return (l.slug.clone(), of(l));
    }
    crate::lesson::all()
        .iter()
        .map(|l| (l.slug.clone(), of(l)))
        .find(|(_, t)| !t.is_empty())
        .unwrap_or_default()
}

#[component]
pub fn TaskScope(props: &TaskScopeProps) -> Html {
    let slug = use_context::<crate::ui::route::LessonSlug>()
        .map(|s| s.0)
        .unwrap_or_default();
    let found = use_memo((slug, props.widget.clone()), |(slug, w)| tasks_of(slug, w));
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
