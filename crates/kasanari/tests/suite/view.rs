//! `kasanari view`: the testbed's server through raw HTTP requests (its
//! answers, bad requests, the scene's round trip) and its page in a real
//! browser (headless Chromium driven over the DevTools protocol: a shape
//! dragged with the mouse onto another must show the new colliding pair).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use kasanari::scene::Scene;
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A running `kasanari view`, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kasanari"))
            .arg("view")
            .args(args)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "kasanari view: http://127.0.0.1:PORT/ (...)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{line}");
        Self { child, addr }
    }

    /// Sends raw bytes, returns the status and the body.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        // The server may answer (413) and close before reading all of a big
        // request: a failed write is not the test's failure.
        let _ = s.write_all(request);
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.raw(
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                self.addr,
                body.len()
            )
            .as_bytes(),
        )
    }

    fn json(&self, method: &str, path: &str, body: &str) -> Value {
        let (status, text) = self.request(method, path, body);
        assert_eq!(status, 200, "{method} {path}: {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// Stops the server through `POST /api/quit` and checks its exit.
    fn quit(mut self) {
        let (status, _) = self.request("POST", "/api/quit", "");
        assert_eq!(status, 200);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                assert!(s.success(), "{s}");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not stop");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The labels of the colliding pairs of a frame, each pair sorted.
fn pairs(frame: &Value) -> Vec<(String, String)> {
    let label = |i: &Value| {
        frame["shapes"][i.as_u64().unwrap() as usize]["label"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut out: Vec<(String, String)> = frame["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (a, b) = (label(&p["a"]), label(&p["b"]));
            if a < b { (a, b) } else { (b, a) }
        })
        .collect();
    out.sort();
    out
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn server_answers_and_round_trips_the_scene() {
    for precision in ["f32", "f64"] {
        let server = Server::start(&["docs/examples/testbed.json", "--precision", precision]);
        let (status, page) = server.request("GET", "/", "");
        assert_eq!(status, 200);
        assert!(
            page.contains("<canvas") && !page.contains("http://") && !page.contains("https://")
        );
        let frame = server.json("GET", "/api/frame", "");
        assert_eq!(frame["precision"], precision);
        assert_eq!(frame["shapes"].as_array().unwrap().len(), 11);
        let found = pairs(&frame);
        for p in [
            pair("ball", "floor"),
            pair("crate", "floor"),
            pair("floor", "ramp"),
            pair("egg", "pin"),
        ] {
            assert!(found.contains(&p), "{p:?} not in {found:?}");
        }
        assert!(!found.iter().any(|(a, b)| a == "puck" || b == "puck"));
        // Every built-in kind is drawn from its spec.
        let mut kinds: Vec<&str> = frame["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["kind"].as_str().unwrap())
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), 9, "{kinds:?}");
        // The ball (radius 1) sinks 1/8 into the floor (top at y = -3.5):
        // the contact's normal points from the floor (shape 0) up.
        let p = &frame["pairs"][0];
        assert_eq!((&p["a"], &p["b"]), (&json!(0), &json!(1)));
        assert_eq!(p["normal"], json!([0.0, 1.0]));
        assert_eq!(p["depth"], 0.125);
        assert!(!p["manifold"].as_array().unwrap().is_empty());
        assert!(frame["stats"]["candidate_pairs"].as_u64().unwrap() >= 4);
        assert!(!frame["cells"].as_array().unwrap().is_empty());

        // Saved unedited, the scene is the file's.
        let text = std::fs::read_to_string(root().join("docs/examples/testbed.json")).unwrap();
        let file: Scene = serde_json::from_str(&text).unwrap();
        let saved: Scene = serde_json::from_value(server.json("GET", "/api/scene", "")).unwrap();
        assert_eq!(saved, file);

        // The puck (radius 0.7) is 2.5495 - 1.2 from the pill's core end.
        let d = server.json("POST", "/api/distance", r#"{"a": 6, "b": 5}"#);
        let expect = (2.5f64 * 2.5 + 0.25).sqrt() - 1.2;
        let tol = if precision == "f32" { 1e-5 } else { 1e-12 };
        assert!(
            (d["distance"].as_f64().unwrap() - expect).abs() < tol,
            "{d}"
        );
        assert_eq!(d["intersects"], false);
        // A ray along y = 3 from x = -8 meets the puck's left side at -0.2.
        let r = server.json("POST", "/api/ray", r#"{"origin": [-8, 3], "to": [0, 3]}"#);
        assert_eq!((&r["hit"], &r["shape"]), (&json!(true), &json!(6)));
        assert!((r["toi"].as_f64().unwrap() - 7.8 / 8.0).abs() < tol, "{r}");
        assert_eq!(r["normal"], json!([-1.0, 0.0]));
        // The puck cast to the right touches the pill; cast up it touches nothing.
        let c = server.json("POST", "/api/cast", r#"{"shape": 6, "by": [4, 0]}"#);
        assert_eq!((&c["hit"], &c["other"]), (&json!(true), &json!(5)), "{c}");
        let c = server.json("POST", "/api/cast", r#"{"shape": 6, "by": [0, 4]}"#);
        assert_eq!(c["hit"], false);

        // Moved onto the pill, the puck collides with it.
        let moved = server.json("POST", "/api/move", r#"{"shape": 6, "by": [2.5, 0]}"#);
        assert!(pairs(&moved).contains(&pair("pill", "puck")));
        let saved: Scene = serde_json::from_value(server.json("GET", "/api/scene", "")).unwrap();
        assert_ne!(saved, file);
        assert_eq!(
            serde_json::to_value(&saved.shapes[6]).unwrap(),
            json!({"id": "puck", "kind": "circle", "center": [3.0, 3.0], "radius": 0.7})
        );
        // Turned by half a radian, the plank's angle is -0.2 + 0.5.
        let turned = server.json("POST", "/api/move", r#"{"shape": 10, "turn": 0.5}"#);
        assert_eq!(turned["shapes"][10]["spec"]["angle"], -0.2 + 0.5);

        // Loading the file again gives it back, exactly.
        let loaded = server.json("POST", "/api/scene", &text);
        assert_eq!(pairs(&loaded), found);
        let saved: Scene = serde_json::from_value(server.json("GET", "/api/scene", "")).unwrap();
        assert_eq!(saved, file);
        server.quit();
    }
}

#[test]
fn bad_requests_get_a_message_and_the_server_keeps_serving() {
    let server = Server::start(&["docs/examples/testbed.json"]);
    let cases: [(&str, &str, &str, u16, &str); 13] = [
        ("POST", "/api/move", "{nope", 400, "bad request"),
        ("POST", "/api/move", r#"{"shape": 99}"#, 400, "no shape 99"),
        ("POST", "/api/move", r#"{"shape": -1}"#, 400, "bad request"),
        (
            "POST",
            "/api/move",
            r#"{"shape": 0, "by": [1e309, 0]}"#,
            400,
            "bad request",
        ),
        (
            "POST",
            "/api/move",
            r#"{"shape": 0, "speed": 1}"#,
            400,
            "unknown field",
        ),
        (
            "POST",
            "/api/distance",
            r#"{"a": 0}"#,
            400,
            "missing field `b`",
        ),
        (
            "POST",
            "/api/ray",
            r#"{"origin": [0, 0], "to": [0, 0]}"#,
            400,
            "ray",
        ),
        (
            "POST",
            "/api/step",
            r#"{"frames": 100000}"#,
            400,
            "at most 600",
        ),
        (
            "POST",
            "/api/scene",
            r#"{"shapes": [{"kind": "circle", "center": [0, 0], "radius": -1}]}"#,
            400,
            "radius must be positive",
        ),
        (
            "POST",
            "/api/scene",
            r#"{"version": 2, "shapes": []}"#,
            400,
            "unsupported format version 2",
        ),
        ("GET", "/nowhere", "", 404, "no such page"),
        ("DELETE", "/api/frame", "", 405, "not allowed"),
        ("POST", "/api/cast", "\u{0}\u{1}\u{2}", 400, "bad request"),
    ];
    for (method, path, body, status, says) in cases {
        let (got, text) = server.request(method, path, body);
        assert_eq!(got, status, "{method} {path} {body}: {text}");
        assert!(text.contains(says), "{method} {path} {body}: {text}");
    }
    // A move past the range of the numbers is refused, the scene as it was.
    let (_, text) = server.request("POST", "/api/move", r#"{"shape": 1, "by": [1e308, 0]}"#);
    let before = server.json("GET", "/api/scene", "");
    let (got, msg) = server.request("POST", "/api/move", r#"{"shape": 1, "by": [1e308, 0]}"#);
    assert_eq!(got, 400, "{text} then {msg}");
    assert_eq!(server.json("GET", "/api/scene", ""), before);
    // Requests a foreign web page could make through the browser: another
    // Host (DNS rebinding) or another Origin; the page's own origin passes.
    let addr = server.addr.clone();
    let port = addr.rsplit(':').next().unwrap_or_default();
    for (request, headers, code) in [
        ("POST /api/quit", "Host: evil.example".to_string(), 403),
        (
            "POST /api/quit",
            format!("Host: {addr}\r\nOrigin: http://evil.example"),
            403,
        ),
        (
            "POST /api/quit",
            format!("Host: {addr}\r\nOrigin: null"),
            403,
        ),
        (
            "GET /api/frame",
            format!("Host: localhost:{port}\r\nOrigin: http://{addr}"),
            200,
        ),
    ] {
        let (got, text) = server.raw(
            format!(
                "{request} HTTP/1.1\r\n{headers}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        );
        assert_eq!(got, code, "{request} {headers}: {text}");
    }
    // Oversized bodies: declared, and sent in chunks.
    let (got, text) = server.raw(
        format!("POST /api/scene HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n{{")
            .as_bytes(),
    );
    assert_eq!(got, 413, "{text}");
    assert!(text.contains("too large"));
    let mut chunked = format!(
        "POST /api/scene HTTP/1.1\r\nHost: {addr}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    for _ in 0..20 {
        chunked.extend_from_slice(b"10000\r\n");
        chunked.extend(std::iter::repeat_n(b' ', 0x10000));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let (got, text) = server.raw(&chunked);
    assert_eq!(got, 413, "{text}");
    // Not HTTP at all.
    let (got, _) = server.raw(b"HELLO THERE\r\n\r\n");
    assert_eq!(got, 400);
    // Still serving, the scene as it was.
    let frame = server.json("GET", "/api/frame", "");
    assert_eq!(frame["shapes"].as_array().unwrap().len(), 11);
    server.quit();
}

#[test]
fn the_arena_plays() {
    let server = Server::start(&["--arena", "--n", "60", "--precision", "f32"]);
    let first = server.json("GET", "/api/frame", "");
    // 60 movers, 3 compound bodies and the tile-map floor (the last).
    assert_eq!(first["stats"]["objects"], 64);
    assert_eq!(first["shapes"][63]["spec"]["kind"], "tile_map");
    assert_eq!(first["shapes"][60]["spec"]["kind"], "compound");
    assert!(first["arena"].as_f64().unwrap() > 0.0);
    let later = server.json("POST", "/api/step", r#"{"frames": 30}"#);
    assert_eq!(later["frame"], 30);
    assert!((later["time"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    assert_ne!(first["shapes"][0]["spec"], later["shapes"][0]["spec"]);
    assert_ne!(first["shapes"][60]["spec"], later["shapes"][60]["spec"]);
    assert_eq!(first["shapes"][63]["spec"], later["shapes"][63]["spec"]);
    // The arena saves as a scene file, which loads.
    let scene = server.json("GET", "/api/scene", "");
    let scene: Scene = serde_json::from_value(scene).unwrap();
    assert_eq!(scene.shapes.len(), 64);
    assert!(scene.world::<f32>(None).is_ok());
    server.quit();
    // Ctrl-C (SIGINT) stops the server cleanly, between requests.
    #[cfg(unix)]
    {
        let mut server = Server::start(&["docs/examples/testbed.json"]);
        let frame = server.json("GET", "/api/frame", "");
        assert_eq!(frame["shapes"].as_array().unwrap().len(), 11);
        let sent = Command::new("kill")
            .args(["-INT", &server.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = server.child.try_wait().unwrap() {
                break s;
            }
            assert!(Instant::now() < deadline, "Ctrl-C did not stop the server");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(status.success(), "{status}");
        let mut rest = String::new();
        server
            .child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut rest)
            .unwrap();
        assert!(rest.contains("stopped after 1 request\n"), "{rest}");
    }
    // Not both a file and the arena; not a port beyond range.
    for args in [
        &["view", "docs/examples/testbed.json", "--arena"][..],
        &["view", "--port", "70000"],
        &["view", "--precision", "f16"],
        &["view", "missing.json"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_kasanari"))
            .args(args)
            .current_dir(root())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

// ---- the browser -----------------------------------------------------------

/// Headless Chromium with its DevTools websocket.
struct Browser {
    child: Child,
    socket: tungstenite::WebSocket<TcpStream>,
    next_id: u64,
    _profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// A plain HTTP GET (the DevTools target list).
fn http_get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out.split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string())
}

impl Browser {
    fn open(url: &str) -> Self {
        let Some(exe) = chromium() else {
            panic!(
                "\n\n*** kasanari view's browser test needs Chromium, and none was found ***\n\
                 Install it (Debian: `apt-get install -y chromium`; `.ci/run` does), or point\n\
                 CHROMIUM at the executable. This test never passes without a browser.\n"
            );
        };
        // One profile per browser: two with the same profile would be one.
        static OPENED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = OPENED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let profile =
            std::env::temp_dir().join(format!("kasanari-chromium-{}-{n}", std::process::id()));
        let mut child = Command::new(&exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                "--window-size=1280,820",
                "--remote-debugging-port=0",
                "--remote-debugging-address=127.0.0.1",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("ws://").nth(1) {
                    let _ = tx.send(rest.split('/').next().unwrap_or("").to_string());
                }
            }
        });
        let devtools = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("Chromium ({}) printed no DevTools address", exe.display()));
        let deadline = Instant::now() + Duration::from_secs(30);
        let ws = loop {
            let list: Value =
                serde_json::from_str(&http_get(&devtools, "/json/list")).unwrap_or(Value::Null);
            let page = list.as_array().and_then(|a| {
                a.iter()
                    .find(|t| t["type"] == "page")
                    .and_then(|t| t["webSocketDebuggerUrl"].as_str().map(str::to_string))
            });
            if let Some(ws) = page {
                break ws;
            }
            assert!(Instant::now() < deadline, "no page target: {list}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let stream = TcpStream::connect(&devtools).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (socket, _) = tungstenite::client::client(ws.as_str(), stream).unwrap();
        Self {
            child,
            socket,
            next_id: 0,
            _profile: profile,
        }
    }

    /// Calls a DevTools method and returns its result (events are skipped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let msg = json!({"id": id, "method": method, "params": params}).to_string();
        self.socket.send(tungstenite::Message::text(msg)).unwrap();
        loop {
            let m = self.socket.read().unwrap();
            if let tungstenite::Message::Text(t) = m {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["id"] == id {
                    assert!(v["error"].is_null(), "{method}: {v}");
                    return v["result"].clone();
                }
            }
        }
    }

    /// Evaluates a JavaScript expression in the page (promises awaited).
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r["exceptionDetails"].is_null(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true in the page.
    fn wait_for(&mut self, expr: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.eval(expr) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {expr}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A mouse event at (x, y), in CSS pixels of the page.
    fn mouse(&mut self, kind: &str, x: f64, y: f64, modifiers: u32) {
        let buttons = if kind == "mouseReleased" { 0 } else { 1 };
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons,
                   "clickCount": 1, "modifiers": modifiers}),
        );
    }

    /// Where a world point is on the page.
    fn screen(&mut self, p: [f64; 2]) -> (f64, f64) {
        let v = self.eval(&format!(
            "(() => {{ const q = testbed.toScreen([{}, {}]); const r = document.getElementById('canvas').getBoundingClientRect(); \
             const k = r.width / document.getElementById('canvas').width; return [r.left + q[0] * k, r.top + q[1] * k]; }})()",
            p[0], p[1]
        ));
        (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
    }
}

/// Decodes standard base64 (the screenshot).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= u32::from(value(*c)) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGVsbG8h"), b"hello!");
    assert_eq!(base64("aGk="), b"hi");
}

#[test]
fn a_shape_dragged_in_the_browser_shows_the_new_pair() {
    let server = Server::start(&["docs/examples/testbed.json"]);
    let mut browser = Browser::open(&format!("http://{}/", server.addr));
    browser.wait_for("window.testbed !== undefined && testbed.frame !== null && !testbed.busy");
    let listed =
        "Array.from(document.querySelectorAll('#pairs li')).map(li => li.textContent).join('\\n')";
    let before = browser.eval(listed);
    let before = before.as_str().unwrap();
    assert!(
        before.contains("ball × floor") || before.contains("floor × ball"),
        "{before}"
    );
    assert!(!before.contains("puck"), "{before}");
    // Drag the puck (centre (0.5, 3)) 2.5 to the right, onto the pill.
    let (x0, y0) = browser.screen([0.5, 3.0]);
    let (x1, y1) = browser.screen([3.0, 3.0]);
    browser.mouse("mousePressed", x0, y0, 0);
    for k in 1..=10 {
        let t = f64::from(k) / 10.0;
        browser.mouse("mouseMoved", x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, 0);
    }
    browser.mouse("mouseReleased", x1, y1, 0);
    browser.wait_for("!testbed.busy");
    let after = browser.eval(listed);
    let after = after.as_str().unwrap();
    assert!(
        after.contains("puck × pill") || after.contains("pill × puck"),
        "the dragged puck shows no pair with the pill:\n{after}"
    );
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        json!("")
    );
    // The server holds the move (about 2.5 to the right, as far as the
    // mouse's whole pixels allow).
    let frame = server.json("GET", "/api/frame", "");
    let c = &frame["shapes"][6]["spec"]["center"];
    assert!((c[0].as_f64().unwrap() - 3.0).abs() < 0.05, "{c}");
    // For the picture: grid cells and boxes on, the hexagon selected beside
    // the puck (shift-click) for their distance, a ray.
    browser.eval("document.getElementById('show-cells').click()");
    let (hx, hy) = browser.screen([5.0, -2.3]);
    browser.mouse("mousePressed", hx, hy, 0);
    browser.mouse("mouseReleased", hx, hy, 0);
    let (px, py) = browser.screen([3.0, 3.0]);
    browser.mouse("mousePressed", px, py, 8);
    browser.mouse("mouseReleased", px, py, 8);
    browser.wait_for("!testbed.busy");
    let selection = browser.eval("document.getElementById('selection').textContent");
    assert!(
        selection.as_str().unwrap().contains("distance"),
        "{selection}"
    );
    browser.eval("document.querySelector('input[name=tool][value=ray]').click()");
    let (rx, ry) = browser.screen([-7.5, -1.0]);
    let (tx, ty) = browser.screen([-3.0, 1.5]);
    browser.mouse("mousePressed", rx, ry, 0);
    browser.mouse("mouseMoved", tx, ty, 0);
    browser.mouse("mouseReleased", tx, ty, 0);
    browser.wait_for("!testbed.busy");
    let query = browser.eval("document.getElementById('query').textContent");
    assert!(query.as_str().unwrap().contains("ray hits"), "{query}");
    let shot = browser.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64(shot["data"].as_str().unwrap());
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("testbed.png");
    std::fs::write(&path, &png).unwrap();
    eprintln!("screenshot: {}", path.display());
    drop(browser);
    server.quit();
}

#[test]
fn the_page_previews_a_cast_and_plays_the_arena() {
    // A cast dragged from the puck to the right stops at the pill.
    let server = Server::start(&["docs/examples/testbed.json", "--precision", "f32"]);
    let mut browser = Browser::open(&format!("http://{}/", server.addr));
    browser.wait_for("window.testbed !== undefined && testbed.frame !== null && !testbed.busy");
    browser.eval("document.querySelector('input[name=tool][value=cast]').click()");
    let (x0, y0) = browser.screen([0.5, 3.0]);
    let (x1, y1) = browser.screen([4.5, 3.0]);
    browser.mouse("mousePressed", x0, y0, 0);
    browser.mouse("mouseMoved", x1, y1, 0);
    browser.mouse("mouseReleased", x1, y1, 0);
    browser.wait_for("!testbed.busy");
    let query = browser.eval("document.getElementById('query').textContent");
    assert!(
        query
            .as_str()
            .unwrap()
            .contains("cast of puck touches pill"),
        "{query}"
    );
    // The cast moved nothing.
    let frame = server.json("GET", "/api/frame", "");
    assert_eq!(frame["shapes"][6]["spec"]["center"], json!([0.5, 3.0]));
    drop(browser);
    server.quit();

    // Play runs the arena's clock on; pause stops it.
    let server = Server::start(&["--arena", "--n", "80"]);
    let mut browser = Browser::open(&format!("http://{}/", server.addr));
    browser.wait_for("window.testbed !== undefined && testbed.frame !== null && !testbed.busy");
    assert_eq!(
        browser.eval("document.getElementById('objects').textContent"),
        json!("84")
    );
    browser.eval("document.getElementById('play').click()");
    browser.wait_for("testbed.frame.frame >= 10");
    browser.eval("document.getElementById('pause').click()");
    browser.wait_for("!testbed.busy");
    let stopped = browser.eval("testbed.frame.frame");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(browser.eval("testbed.frame.frame"), stopped);
    browser.eval("document.getElementById('step').click()");
    browser.wait_for(&format!(
        "testbed.frame.frame === {} && !testbed.busy",
        stopped.as_u64().unwrap() + 1
    ));
    let time = browser.eval("document.getElementById('time').textContent");
    assert!(
        time.as_str()
            .unwrap()
            .ends_with(&format!("({})", stopped.as_u64().unwrap() + 1)),
        "{time}"
    );
    drop(browser);
    server.quit();
}

/// The level scene (`docs/examples/level.json`: a tile map, a one-sided
/// chain, a concave polygon and a compound) in the browser: the composite
/// pairs are listed with their parts, the server's frame carries what the
/// page draws them from (specs, a concave polygon's parts), and a ball
/// dragged onto the chain shows the new pair with the segment it rests on.
#[test]
fn the_level_scene_shows_composite_pairs_in_the_browser() {
    let server = Server::start(&["docs/examples/level.json"]);
    let frame = server.json("GET", "/api/frame", "");
    let kinds: Vec<&str> = frame["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        &kinds[..4],
        &["tile_map", "polyline", "concave_polygon", "compound"]
    );
    assert_eq!(
        frame["shapes"][0]["spec"]["rows"][0],
        json!("...........#####")
    );
    assert_eq!(frame["shapes"][2]["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(
        frame["shapes"][3]["spec"]["parts"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert!(frame["shapes"][4].get("pieces").is_none());
    // ground × cart: tile 23 under the left wheel (part 1).
    let cart = frame["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == json!(0) && p["b"] == json!(3))
        .unwrap_or_else(|| panic!("{}", frame["pairs"]));
    assert_eq!(cart["parts"], json!([23, 1]));

    let mut browser = Browser::open(&format!("http://{}/", server.addr));
    browser.wait_for("window.testbed !== undefined && testbed.frame !== null && !testbed.busy");
    let listed =
        "Array.from(document.querySelectorAll('#pairs li')).map(li => li.textContent).join('\\n')";
    let before = browser.eval(listed);
    let before = before.as_str().unwrap();
    assert!(before.contains("ground × cart"), "{before}");
    assert!(before.contains("parts 23, 1"), "{before}");
    assert!(!before.contains("bird"), "{before}");
    // Drag the bird (a ball at (4, 6)) onto the ledge's third segment, its
    // bottom 0.2 below it at x = -5.5.
    let (x0, y0) = browser.screen([4.0, 6.0]);
    let (x1, y1) = browser.screen([-5.5, 4.3]);
    browser.mouse("mousePressed", x0, y0, 0);
    for k in 1..=10 {
        let t = f64::from(k) / 10.0;
        browser.mouse("mouseMoved", x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, 0);
    }
    browser.mouse("mouseReleased", x1, y1, 0);
    browser.wait_for("!testbed.busy");
    let after = browser.eval(listed);
    let after = after.as_str().unwrap();
    assert!(
        after
            .lines()
            .any(|l| l.starts_with("ledge × bird") && l.ends_with("parts 2, -")),
        "the dragged bird shows no pair with the ledge's segment 2:\n{after}"
    );
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        json!("")
    );
    // The composites can be picked too: the rock (the concave polygon) is
    // found under the mouse inside its foot, not in its notch.
    let pick = |b: &mut Browser, p: [f64; 2]| {
        b.eval(&format!(
            "testbed.shapeAt(...testbed.toScreen([{}, {}]))",
            p[0], p[1]
        ))
    };
    assert_eq!(pick(&mut browser, [-4.0, 0.5]), json!(2));
    assert_eq!(pick(&mut browser, [-4.0, 2.0]), json!(-1));
    // The cart's body (a part of the compound), and a tile of the ground.
    assert_eq!(pick(&mut browser, [0.5, 1.2]), json!(3));
    assert_eq!(pick(&mut browser, [5.0, -1.5]), json!(0));
    let shot = browser.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64(shot["data"].as_str().unwrap());
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("testbed-level.png");
    std::fs::write(&path, &png).unwrap();
    eprintln!("screenshot: {}", path.display());
    drop(browser);
    server.quit();
}
