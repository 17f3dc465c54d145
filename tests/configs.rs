//! Every shipped config parses and validates, so a typo in `configs/` fails CI, not a user.

#[test]
fn every_shipped_config_is_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            // A GPU config needs a GPU build to load; everything else about it must be right.
            let gpu = text.contains("device = \"gpu\"");
            let checked =
                if gpu { text.replace("device = \"gpu\"", "device = \"cpu\"") } else { text };
            if let Err(e) = train::RunConfig::parse(&checked, &path.display().to_string()) {
                panic!("{e}");
            }
            n += 1;
        }
    }
    assert!(n >= 4, "found {n} configs");
}
