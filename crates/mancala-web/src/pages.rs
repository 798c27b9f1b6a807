//! The browser's side of the site: the HTML pages (home, a game, its replay, a
//! profile, "not found") and the static files they use, served from one table.

use std::sync::OnceLock;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::error::GameError;
use crate::games::Games;
use crate::http::ApiError;
use crate::http::{Limiter, method_not_allowed, no_endpoint};

/// How long browsers may keep the static assets: their URLs carry the asset version.
const STATIC_CACHE: &str = "public, max-age=31536000, immutable";

/// The hash that versions the static assets' URLs: of every asset under `/static/`.
fn asset_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut h = Sha256::new();
        for asset in ASSETS.iter().filter(|a| a.path.starts_with("/static/")) {
            h.update(asset.body);
        }
        h.finalize()[..6]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    })
}

/// The HTML pages served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Page {
    /// The home page, a game and its replay (`index.html`; the scripts tell them apart
    /// by the address).
    Index,
    /// `/g/<id>` of a game that does not exist (or has expired).
    NoSuchGame,
    /// Any other address with nothing there.
    NotFound,
}

impl Page {
    /// The words of a "not found" page: title, heading, text, link home.
    fn not_found_words(self) -> [&'static str; 4] {
        match self {
            Page::NoSuchGame => [
                "no such game",
                "No such game",
                "There is no game at this address: the link may be mistyped, or the game \
                 has expired (games nobody plays are deleted after a while).",
                "Start a new game",
            ],
            Page::Index | Page::NotFound => [
                "page not found",
                "Page not found",
                "There is nothing at this address: the link may be mistyped.",
                "Go to the home page to play or watch a game",
            ],
        }
    }

    /// The page's HTML, with the asset version (and its words) filled in.
    fn text(self) -> String {
        let template = if self == Page::Index {
            include_str!("../static/index.html").to_owned()
        } else {
            let [title, heading, text, link] = self.not_found_words();
            include_str!("../static/not_found.html")
                .replace("NOT_FOUND_TITLE", title)
                .replace("NOT_FOUND_HEADING", heading)
                .replace("NOT_FOUND_TEXT", text)
                .replace("NOT_FOUND_LINK", link)
        };
        template.replace("ASSET_VERSION", asset_version())
    }
}

/// An HTML page, as `status`.
fn html(status: StatusCode, page: Page) -> Response {
    static PAGES: OnceLock<[String; 3]> = OnceLock::new();
    let pages =
        PAGES.get_or_init(|| [Page::Index, Page::NoSuchGame, Page::NotFound].map(Page::text));
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        pages[page as usize].clone(),
    )
        .into_response()
}

async fn home() -> Response {
    html(StatusCode::OK, Page::Index)
}

/// A game's page, or 404 with a way home when there is no such game.
async fn game_page(
    State(games): State<Games>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(if games.exists(&id).await? {
        html(StatusCode::OK, Page::Index)
    } else {
        html(StatusCode::NOT_FOUND, Page::NoSuchGame)
    })
}

/// Any other address: the API's JSON 404 under `/api/`, else a page with a way home.
pub(crate) async fn page_not_found(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return no_endpoint().await.into_response();
    }
    html(StatusCode::NOT_FOUND, Page::NotFound)
}

/// One static file: where it is served, its type and its bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
    /// How long browsers may keep it.
    cache: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every static file the pages use, in one table: the routes are made from it and
/// the asset version hashes the files whose URLs carry it.
const ASSETS: &[Asset] = &[
    Asset {
        path: "/static/app.js",
        content_type: JS,
        body: include_bytes!("../static/app.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/focus.js",
        content_type: JS,
        body: include_bytes!("../static/focus.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/live.js",
        content_type: JS,
        body: include_bytes!("../static/live.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/moves.js",
        content_type: JS,
        body: include_bytes!("../static/moves.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/lobby.js",
        content_type: JS,
        body: include_bytes!("../static/lobby.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/catalogue.js",
        content_type: JS,
        body: include_bytes!("../static/catalogue.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/replay.js",
        content_type: JS,
        body: include_bytes!("../static/replay.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/play.js",
        content_type: JS,
        body: include_bytes!("../static/play.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/account.js",
        content_type: JS,
        body: include_bytes!("../static/account.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/challenges.js",
        content_type: JS,
        body: include_bytes!("../static/challenges.js"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/static/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../static/style.css"),
        cache: STATIC_CACHE,
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../static/favicon.svg"),
        cache: STATIC_CACHE,
    },
    // The icon of a tab whose player is to move.
    Asset {
        path: "/favicon-turn.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../static/favicon-turn.svg"),
        cache: STATIC_CACHE,
    },
    // Its URL is fixed (browsers ask for it by name), so a day rather than a year.
    Asset {
        path: "/favicon.ico",
        content_type: "image/x-icon",
        body: include_bytes!("../static/favicon.ico"),
        cache: "public, max-age=86400",
    },
];

fn asset_response(asset: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::CACHE_CONTROL, asset.cache),
        ],
        asset.body,
    )
        .into_response()
}

/// The browser pages and their assets, all counted as reads.
pub(crate) fn page_routes(read: Limiter) -> Router<Games> {
    let mut router = Router::new()
        .route("/", get(home))
        .route("/g/{id}", get(game_page))
        .route("/g/{id}/replay", get(game_page))
        .route("/@/{name}", get(profile_page))
        .route("/leaderboard", get(home));
    for asset in ASSETS {
        router = router.route(
            asset.path,
            get(move || async move { asset_response(asset) }),
        );
    }
    router
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(read)
}

/// A player's profile page, or 404 with a way home when there is no such account.
async fn profile_page(
    State(games): State<Games>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    Ok(match games.user(&name).await {
        Ok(_) => html(StatusCode::OK, Page::Index),
        Err(GameError::NotFound) => html(StatusCode::NOT_FOUND, Page::NotFound),
        Err(e) => return Err(ApiError::Game(e)),
    })
}
