//! `rochade user …` and `rochade token …`: accounts for whoever runs the
//! server, on the same database file as `rochade serve --db`, also while
//! the server runs.

use std::path::PathBuf;

use anyhow::Context as _;
use rochade_server::accounts::admin;
use rochade_server::storage::{SqlStorage, shown};

/// Arguments of `rochade user`.
#[derive(Debug, clap::Args)]
pub struct UserArgs {
    /// What to do with accounts.
    #[command(subcommand)]
    command: UserCommand,
    /// The server's database (as `rochade serve --db`).
    #[arg(long, default_value = "rochade.sqlite", global = true)]
    db: PathBuf,
}

/// The account commands.
#[derive(Debug, clap::Subcommand)]
enum UserCommand {
    /// Make an account.
    Add {
        /// 2–20 letters, digits, `_` and `-`; unique without regard to case.
        name: String,
        /// A file whose first line is the password (without it, the account
        /// cannot sign in on the page: a bot that plays with its token).
        #[arg(long)]
        password_file: Option<PathBuf>,
        /// A bot account (lichess's BOT title).
        #[arg(long)]
        bot: bool,
    },
    /// List the accounts.
    List,
    /// Disable an account: its sessions end, its tokens stop working.
    Disable {
        /// The account.
        name: String,
    },
    /// Enable a disabled account again.
    Enable {
        /// The account.
        name: String,
    },
    /// Show an account's leave (ICCF 10.1), or with --grant give it extra
    /// leave days for a year.
    Leave {
        /// The account.
        name: String,
        /// Extra days to grant (1–366).
        #[arg(long, value_parser = clap::value_parser!(i64).range(1..=366))]
        grant: Option<i64>,
        /// The calendar year the days are for (default: this year).
        #[arg(long)]
        year: Option<i64>,
        /// Why (kept with the grant).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Make an account one of the site's tournament directors (or, with
    /// --off, not): they create tournaments and direct the correspondence
    /// games of no tournament (ICCF 14).
    Director {
        /// The account.
        name: String,
        /// Take the role away.
        #[arg(long)]
        off: bool,
    },
    /// Make an account a bot account (or, with --off, a person's again).
    Bot {
        /// The account.
        name: String,
        /// Take the bot title away.
        #[arg(long)]
        off: bool,
    },
}

/// Arguments of `rochade token`.
#[derive(Debug, clap::Args)]
pub struct TokenArgs {
    /// What to do with tokens.
    #[command(subcommand)]
    command: TokenCommand,
    /// The server's database (as `rochade serve --db`).
    #[arg(long, default_value = "rochade.sqlite", global = true)]
    db: PathBuf,
}

/// The token commands.
#[derive(Debug, clap::Subcommand)]
enum TokenCommand {
    /// Make a personal API token (printed once; only its digest is kept).
    Create {
        /// The account it acts for.
        name: String,
        /// What it may do: board:play, bot:play, challenge:read,
        /// challenge:write, preference:read (comma-separated).
        #[arg(long, default_value = "board:play,challenge:read,challenge:write")]
        scopes: String,
        /// What it is for.
        #[arg(long, default_value = "")]
        description: String,
    },
}

/// Opens the database.
fn open(db: &std::path::Path) -> anyhow::Result<SqlStorage> {
    let db = db.to_string_lossy();
    SqlStorage::connect(&db).with_context(|| format!("opening {}", shown(&db)))
}

/// Runs `rochade user …`.
pub fn run(args: &UserArgs) -> anyhow::Result<()> {
    let store = open(&args.db)?;
    match &args.command {
        UserCommand::Add {
            name,
            password_file,
            bot,
        } => {
            let password = password_file
                .as_ref()
                .map(|path| {
                    std::fs::read_to_string(path)
                        .with_context(|| format!("reading {}", path.display()))
                        .map(|text| text.lines().next().unwrap_or_default().to_owned())
                })
                .transpose()?;
            let user = admin::add_user(&store, name, password.as_deref(), *bot)?;
            println!(
                "added {}{}",
                user.name,
                if user.bot { " (bot)" } else { "" }
            );
        }
        UserCommand::List => {
            for user in admin::list(&store)? {
                let mut marks = Vec::new();
                if user.bot {
                    marks.push("bot");
                }
                if user.disabled {
                    marks.push("disabled");
                }
                if user.password.is_none() {
                    marks.push("no password");
                }
                println!("{}\t{}", user.name, marks.join(", "));
            }
        }
        UserCommand::Disable { name } => {
            let user = admin::disable(&store, name, true)?;
            println!("disabled {}", user.name);
        }
        UserCommand::Enable { name } => {
            let user = admin::disable(&store, name, false)?;
            println!("enabled {}", user.name);
        }
        UserCommand::Leave {
            name,
            grant,
            year,
            reason,
        } => {
            let this_year = rochade_server::correspondence::leave::Day::of_ms(
                rochade_server::storage::wall_ms(),
            )
            .year();
            if let Some(days) = grant {
                let year = year.unwrap_or(this_year);
                let user = admin::grant_leave(&store, name, year, *days, reason, "organiser")?;
                println!("granted {} {days} extra leave days in {year}", user.name);
            } else {
                let (leaves, grants) = admin::leave(&store, name)?;
                for booked in leaves {
                    println!(
                        "leave\t{}\t{}\t{} days",
                        booked.leave.first,
                        booked.leave.last,
                        booked.leave.days()
                    );
                }
                for g in grants {
                    println!("granted\t{}\t{} days\t{}", g.year, g.days, g.reason);
                }
            }
        }
        UserCommand::Director { name, off } => {
            let user = admin::set_director(&store, name, !off)?;
            println!(
                "{} is {}",
                user.name,
                if *off {
                    "no longer a director"
                } else {
                    "a director"
                }
            );
        }
        UserCommand::Bot { name, off } => {
            let user = admin::set_bot(&store, name, !off)?;
            println!(
                "{} is {}",
                user.name,
                if user.bot { "a bot" } else { "a person" }
            );
        }
    }
    Ok(())
}

/// Runs `rochade token …`.
pub fn token(args: &TokenArgs) -> anyhow::Result<()> {
    let store = open(&args.db)?;
    match &args.command {
        TokenCommand::Create {
            name,
            scopes,
            description,
        } => println!(
            "{}",
            admin::create_token(&store, name, scopes, description)?
        ),
    }
    Ok(())
}
