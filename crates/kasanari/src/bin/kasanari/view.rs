//! `kasanari view`: an interactive testbed in the browser (next commit).

use crate::args::ViewOptions;

pub fn run(_o: &ViewOptions) -> Result<(), String> {
    Err("view: not built yet".into())
}
