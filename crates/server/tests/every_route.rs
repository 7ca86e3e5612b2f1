//! Every route of the app, taken from the router's own source, sent bad
//! input: wrong methods, unknown and malformed ids, bodies that are not
//! JSON, JSON of the wrong shape, a form where JSON belongs, a body far
//! too large, nesting deeper than any parser should follow; as nobody, as
//! a signed-in page and as the holder of an API token. No request may
//! make a handler panic or answer a server error, and every refusal
//! says what was wrong: a body that names the error.

mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use rochade_server::storage::{AccountStore, TournamentStore};
use serde_json::{Value, json};
use tower::ServiceExt;

/// Every path the app routes, from the `.route("…", …)` calls of the
/// sources that build the router.
fn routes() -> Vec<String> {
    let sources = [
        include_str!("../src/lib.rs"),
        include_str!("../src/api/mod.rs"),
    ];
    let mut paths = Vec::new();
    for source in sources {
        let mut rest = source;
        while let Some(at) = rest.find(".route(") {
            rest = &rest[at + ".route(".len()..];
            let open = rest.find('"').expect("a route's path");
            let close = rest[open + 1..].find('"').expect("the path's end") + open + 1;
            paths.push(rest[open + 1..close].to_owned());
            rest = &rest[close..];
        }
    }
    paths
}

/// The real things a `{name}` of a path can name (a game, a tournament,
/// a user…).
fn real_fillings(name: &str, real: &BTreeMap<&str, String>) -> Vec<String> {
    match name {
        "id" => ["game", "tournament", "simul", "challenge"]
            .iter()
            .map(|kind| real[kind].clone())
            .collect(),
        "game" => vec![real["game"].clone()],
        "name" | "username" => vec![real["user"].clone()],
        "invite" => vec![real["invite"].clone()],
        "api" => vec!["board".into(), "bot".into()],
        "uci" => vec!["e2e4".into(), "e7e8q".into()],
        "what" => ["accept", "decline", "draw", "resign", "abort", "takeback"]
            .map(String::from)
            .to_vec(),
        "answer" => vec!["yes".into(), "no".into()],
        "*path" => vec!["app.js".into()],
        _ => vec!["nosuch".into()],
    }
}

/// What names nothing, in every shape a path segment can take.
fn garbage() -> Vec<String> {
    let mut values: Vec<String> = [
        "nosuch",
        "0",
        "-1",
        "%00",
        "%FF%FE",
        "..%2F..%2Fetc%2Fpasswd",
        "%F0%9F%99%82",
        "a%20b",
    ]
    .map(String::from)
    .to_vec();
    values.push("x".repeat(3000));
    values
}

/// `path` with its `{name}`s filled: every combination of real things,
/// then each parameter in turn with [`garbage`] (the others real); with
/// whether the path holds garbage.
fn filled(path: &str, real: &BTreeMap<&str, String>) -> Vec<(String, bool)> {
    // The path cut at its parameters: text, name, text, name, …, text.
    let mut texts = vec![String::new()];
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').expect("a parameter's end") + open;
        texts.last_mut().expect("a text").push_str(&rest[..open]);
        names.push(&rest[open + 1..close]);
        texts.push(String::new());
        rest = &rest[close + 1..];
    }
    texts.last_mut().expect("a text").push_str(rest);
    let join = |values: &[String]| {
        let mut out = texts[0].clone();
        for (value, text) in values.iter().zip(&texts[1..]) {
            out.push_str(value);
            out.push_str(text);
        }
        out
    };
    let mut combos: Vec<Vec<String>> = vec![Vec::new()];
    for name in &names {
        combos = combos
            .into_iter()
            .flat_map(|head| {
                real_fillings(name, real).into_iter().map(move |v| {
                    let mut c = head.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    let mut out: Vec<(String, bool)> = combos.iter().map(|c| (join(c), false)).collect();
    let first = &combos[0];
    for at in 0..names.len() {
        for bad in garbage() {
            let mut c = first.clone();
            c[at] = bad;
            out.push((join(&c), true));
        }
    }
    out
}

/// Who asks.
#[derive(Debug, Clone, Copy)]
enum Who {
    Nobody,
    /// The page, signed in (its session cookie, its own origin).
    Page,
    /// A program with an API token of every scope.
    Token,
}

/// A body and its type.
struct Sent {
    what: &'static str,
    kind: Option<&'static str>,
    body: Vec<u8>,
}

/// The bodies every writing route is sent.
fn bodies() -> Vec<Sent> {
    let json = Some("application/json");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let wrong = json!({
        "opponent": 7, "color": [], "time_control": {"a": 1}, "name": null,
        "password": 1.5, "rounds": "many", "system": true, "text": [[]],
        "token": {}, "result": -3, "player": "", "players": "all",
        "settings": 1e308, "level": 1e30, "variant": {}, "fen": 3,
        "moves": {}, "days": -1, "reason": [1], "entry": "open", "ply": "x",
    });
    // Plausible settings whose texts hold the NUL character, which
    // PostgreSQL cannot store.
    let nul = json!({
        "name": "Nul\u{0}name", "password": "a long secret 1\u{0}", "text": "hi\u{0}",
        "time_control": "5+0", "opponent": "friend", "color": "white", "fen": "\u{0}",
        "reason": "\u{0}", "email": "a\u{0}@example.org", "lines": ["e4\u{0}"],
        "note": "\u{0}", "system": "swiss", "rounds": 3, "entry": {"open": true},
        "result": "1-0\u{0}", "player": "\u{0}",
    });
    vec![
        Sent {
            what: "no body",
            kind: None,
            body: Vec::new(),
        },
        Sent {
            what: "cut-off JSON",
            kind: json,
            body: b"{\"opponent\": ".to_vec(),
        },
        Sent {
            what: "JSON null",
            kind: json,
            body: b"null".to_vec(),
        },
        Sent {
            what: "a JSON list",
            kind: json,
            body: b"[1, 2]".to_vec(),
        },
        Sent {
            what: "an empty object",
            kind: json,
            body: b"{}".to_vec(),
        },
        Sent {
            what: "wrong types",
            kind: json,
            body: wrong.to_string().into_bytes(),
        },
        Sent {
            what: "NUL in the texts",
            kind: json,
            body: nul.to_string().into_bytes(),
        },
        Sent {
            what: "NUL in a form",
            kind: Some("application/x-www-form-urlencoded"),
            body: b"time=5&increment=0&color=white%00&variant=standard%00&fen=%00&text=hi%00\
                    &days=1&clock.limit=300&clock.increment=0&keepAliveStream=false%00"
                .to_vec(),
        },
        Sent {
            what: "not UTF-8",
            kind: json,
            body: vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}'],
        },
        Sent {
            what: "deep nesting",
            kind: json,
            body: deep.into_bytes(),
        },
        Sent {
            what: "3 MB",
            kind: json,
            body: format!("{{\"name\": \"{}\"}}", "x".repeat(3 << 20)).into_bytes(),
        },
        Sent {
            what: "a bad form",
            kind: Some("application/x-www-form-urlencoded"),
            body: b"a=%ZZ&&=&time=abc&clock.limit=-5&color=purple&rated=maybe&days=0".to_vec(),
        },
        Sent {
            what: "plain text",
            kind: Some("text/plain"),
            body: b"e2e4".to_vec(),
        },
    ]
}

/// The app and what is real in it.
struct World {
    app: axum::Router,
    _stop: tokio::sync::watch::Sender<bool>,
    session: String,
    token: String,
    real: BTreeMap<&'static str, String>,
}

/// A request.
fn request(who: Who, world: &World, method: &str, uri: &str, sent: &Sent) -> Request<Body> {
    let mut r = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "localhost");
    match who {
        Who::Nobody => {}
        Who::Page => {
            r = r
                .header(header::ORIGIN, "http://localhost")
                .header(header::COOKIE, format!("rochade_session={}", world.session))
        }
        Who::Token => r = r.header(header::AUTHORIZATION, format!("Bearer {}", world.token)),
    }
    if let Some(kind) = sent.kind {
        r = r.header(header::CONTENT_TYPE, kind);
    }
    r.body(Body::from(sent.body.clone())).expect("a request")
}

/// What came back.
struct Answered {
    status: StatusCode,
    /// Its `Content-Type`.
    kind: String,
    /// Whether it has an `Allow` header.
    allow: bool,
    body: Vec<u8>,
}

/// Sends `request`; its status, content type, `Allow` and body (what of it comes
/// within a second: a stream's first lines), or the panic's message.
async fn answer(app: &axum::Router, request: Request<Body>) -> Result<Answered, String> {
    let app = app.clone();
    let task = tokio::spawn(async move {
        let response = app.oneshot(request).await.expect("answers");
        let status = response.status();
        let kind = support::content_type(&response);
        let allow = response.headers().contains_key(header::ALLOW);
        let mut body = response.into_body();
        let mut bytes = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            while let Some(Ok(frame)) = body.frame().await {
                if let Some(data) = frame.data_ref() {
                    bytes.extend_from_slice(data);
                }
            }
        })
        .await;
        Answered {
            status,
            kind,
            allow,
            body: bytes,
        }
    });
    match tokio::time::timeout(Duration::from_secs(20), task).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(e)) => Err(format!("the handler panicked: {e}")),
        Err(_) => Err("no answer within 20 s".to_owned()),
    }
}

/// A server with an API token of "Fuzzer", a signed-in page of the
/// director "Pager", and one of each thing a path can name.
async fn world() -> World {
    let db = support::temp_db();
    let storage = support::open(&db);
    rochade_server::accounts::admin::add_user(&storage, "Fuzzer", None, false).expect("an account");
    rochade_server::accounts::admin::add_user(&storage, "Other", None, false).expect("an account");
    let token = rochade_server::accounts::admin::create_token(
        &storage,
        "fuzzer",
        "board:play,challenge:read,challenge:write,bot:play,preference:read",
        "",
    )
    .expect("a token");
    let (app, stop) = support::app_over(storage);
    let mut world = World {
        app,
        _stop: stop,
        session: String::new(),
        token,
        real: BTreeMap::new(),
    };
    // A page session of a second account (the first has no password).
    let (status, body, session) = world_json(
        &world,
        Who::Nobody,
        "POST",
        "/api/auth/signup",
        json!({"name": "Pager", "password": "a long secret 1"}),
    )
    .await;
    assert!(status.is_success(), "{body}");
    world.session = session.expect("a session");
    let storage = support::open(&db);
    let director = storage.user("pager").expect("reads").expect("signed up");
    storage
        .set_site_director(director.id, true)
        .expect("appointed");
    let (_, game, _) = world_json(
        &world,
        Who::Nobody,
        "POST",
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "5+0"}),
    )
    .await;
    world
        .real
        .insert("game", game["game"].as_str().expect("a game").to_owned());
    let invite = game["links"]["black"]
        .as_str()
        .and_then(|l| l.rsplit('/').next())
        .and_then(|l| l.split('#').next())
        .expect("an invitation")
        .to_owned();
    world.real.insert("invite", invite);
    let (status, tournament, _) = world_json(
        &world,
        Who::Page,
        "POST",
        "/api/tournaments",
        json!({"name": "Open", "time_control": "3+2", "system": "swiss", "rounds": 3,
               "entry": {"open": true}}),
    )
    .await;
    assert!(status.is_success(), "{tournament}");
    world.real.insert(
        "tournament",
        tournament["id"].as_str().expect("id").to_owned(),
    );
    let (status, simul, _) = world_json(
        &world,
        Who::Page,
        "POST",
        "/api/simuls",
        json!({"name": "Simul", "time_control": "10+5"}),
    )
    .await;
    let simul = simul["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no simul: {status} {simul}"));
    world.real.insert("simul", simul.to_owned());
    let (status, challenge, _) = world_json(
        &world,
        Who::Page,
        "POST",
        "/api/account/challenge/other",
        json!({"time_control": "5+0"}),
    )
    .await;
    let challenge = challenge["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no challenge: {status} {challenge}"));
    world.real.insert("challenge", challenge.to_owned());
    world.real.insert("user", "fuzzer".to_owned());
    world
}

/// `method path` with the JSON `body` as `who`; the status, the JSON
/// answer, and the session it set, if any.
async fn world_json(
    world: &World,
    who: Who,
    method: &str,
    path: &str,
    body: Value,
) -> (StatusCode, Value, Option<String>) {
    let sent = Sent {
        what: "",
        kind: Some("application/json"),
        body: body.to_string().into_bytes(),
    };
    let response = world
        .app
        .clone()
        .oneshot(request(who, world, method, path, &sent))
        .await
        .expect("answers");
    let status = response.status();
    let session = response
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.strip_prefix("rochade_session="))
        .and_then(|c| c.split(';').next())
        .map(str::to_owned);
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, json, session)
}

/// What is wrong with an answer to bad input, if anything.
fn fault(uri: &str, answered: &Answered) -> Option<String> {
    let Answered {
        status,
        kind,
        allow,
        body,
    } = answered;
    let status = *status;
    if status == StatusCode::METHOD_NOT_ALLOWED && !allow {
        return Some("a 405 without an Allow header naming the methods".to_owned());
    }
    if status.is_server_error() {
        return Some(format!(
            "a server error {status}: {}",
            String::from_utf8_lossy(body)
        ));
    }
    // A program's routes (not the page's files) refuse in JSON, the
    // framework's own refusals included.
    let program = ["/api/", "/ws/", "/game/"]
        .iter()
        .any(|p| uri.starts_with(p));
    if status.is_client_error() && program && !kind.starts_with("application/json") {
        let text = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
        return Some(format!("{status} in {kind:?}, not JSON: {text}"));
    }
    if status.is_client_error() {
        if body.is_empty() {
            return Some(format!("{status} with nothing said"));
        }
        if kind.starts_with("application/json") {
            let said: Value = match serde_json::from_slice(body) {
                Ok(v) => v,
                Err(e) => return Some(format!("{status}: its JSON does not parse: {e}")),
            };
            if said.get("error").is_none() {
                return Some(format!("{status}: no \"error\" in {said}"));
            }
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_answers_bad_input_with_an_error_that_says_what_is_wrong() {
    let world = world().await;
    let paths = routes();
    assert!(paths.len() > 60, "the routes were not found: {paths:?}");
    let bodies = bodies();
    let mut faults = Vec::new();
    let mut asked = 0;
    for path in &paths {
        for (uri, bad_path) in filled(path, &world.real) {
            for who in [Who::Nobody, Who::Page, Who::Token] {
                let query = format!("{uri}?tc=%ZZ&nb=-1&since=abc&max=99999999999999999999");
                let mut tries: Vec<(&str, &str, &Sent)> = vec![
                    ("GET", uri.as_str(), &bodies[0]),
                    ("GET", query.as_str(), &bodies[0]),
                    ("DELETE", uri.as_str(), &bodies[0]),
                ];
                // A path that names nothing gets two bodies; a real one all.
                let sent = if bad_path { &bodies[..2] } else { &bodies[..] };
                tries.extend(sent.iter().map(|s| ("POST", uri.as_str(), s)));
                for (method, uri, sent) in tries {
                    asked += 1;
                    let shown: String = uri.chars().take(100).collect();
                    let said = format!("{method} {shown} ({}) as {who:?}", sent.what);
                    match answer(&world.app, request(who, &world, method, uri, sent)).await {
                        Ok(answered) => {
                            if let Some(f) = fault(uri, &answered) {
                                faults.push(format!("{said}: {f}"));
                            }
                        }
                        Err(e) => faults.push(format!("{said}: {e}")),
                    }
                }
            }
        }
    }
    let shown: Vec<String> = faults
        .iter()
        .map(|f| f.chars().take(300).collect())
        .collect();
    assert!(
        faults.is_empty(),
        "{} of {asked} requests were answered badly:\n{}",
        faults.len(),
        shown.join("\n")
    );
}
