package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// TestPostgresPasswordOnCommandLine: a -postgres URL that holds a password
// is used, with a warning that says where the password belongs and does
// not repeat it; one without a password is not warned about.
func TestPostgresPasswordOnCommandLine(t *testing.T) {
	t.Setenv(postgresURLEnv, "")
	for _, c := range []struct {
		url  string
		warn bool
	}{
		{"postgres://haulplan:topsecret@127.0.0.1:1/haulplan", true},
		{"postgresql://haulplan@127.0.0.1:1/haulplan?password=topsecret", true},
		{"host=127.0.0.1 port=1 user=haulplan password=topsecret dbname=haulplan", true},
		{"postgres://haulplan@127.0.0.1:1/haulplan", false},
		{"host=127.0.0.1 port=1 user=haulplan dbname=haulplan", false},
	} {
		// Port 1 on loopback refuses at once: the command fails after
		// the warning.
		code, _, errs := runCommand(t, "-postgres", c.url, "tenant", "create", "acme")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1 (nothing listens): %s", c.url, code, errs)
		}
		if got := strings.Contains(errs, "holds a password") && strings.Contains(errs, "PGPASSWORD"); got != c.warn {
			t.Errorf("%s: warned %v, want %v:\n%s", c.url, got, c.warn, errs)
		}
		if strings.Contains(errs, "topsecret") {
			t.Errorf("%s: the password is on stderr:\n%s", c.url, errs)
		}
	}
}

// TestPostgresURLFromEnvironment: without -postgres, HAULPLAN_POSTGRES_URL
// names the database, and -db is not used.
func TestPostgresURLFromEnvironment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	t.Setenv(postgresURLEnv, "postgres://haulplan@127.0.0.1:1/haulplan")
	code, _, errs := runCommand(t, "-db", db, "tenant", "create", "acme")
	if code != 1 || !strings.Contains(errs, "postgres") || strings.Contains(errs, "holds a password") {
		t.Fatalf("exit %d, want 1 with PostgreSQL's error and no warning:\n%s", code, errs)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("the SQLite file was opened: %v", err)
	}
}

// TestPostgresURLFromEnvironmentServes: on a real server, the tenant made
// through HAULPLAN_POSTGRES_URL is there for the next command, and -db is
// not used.
func TestPostgresURLFromEnvironmentServes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	t.Setenv(postgresURLEnv, freshDatabase(t, postgresURL(t)))
	if code, _, errs := runCommand(t, "-db", db, "-log-level", "warn", "tenant", "create", "acme"); code != 0 {
		t.Fatalf("tenant create: exit %d: %s", code, errs)
	}
	if code, _, errs := runCommand(t, "-db", db, "-log-level", "warn", "tenant", "revoke-tokens", "acme"); code != 0 {
		t.Fatalf("tenant revoke-tokens on the same database: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("the SQLite file was opened: %v", err)
	}
}

// TestPostgresPasswordFromEnvironment: the password of a URL without one
// comes from PGPASSWORD, else from the passfile (PGPASSFILE, ~/.pgpass),
// as pgx reads them; what the README tells an operator holds for the pgx
// this service is built with.
func TestPostgresPasswordFromEnvironment(t *testing.T) {
	const u = "postgres://haulplan@db.example:5432/haulplan"
	passfile := filepath.Join(t.TempDir(), "pgpass")
	if err := os.WriteFile(passfile, []byte("db.example:5432:haulplan:haulplan:from-passfile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PGPASSFILE", passfile)
	for _, c := range []struct {
		env, url, want string
	}{
		{"from-env", u, "from-env"},
		{"", u, "from-passfile"},
		{"from-env", "postgres://haulplan:in-url@db.example:5432/haulplan", "in-url"},
	} {
		t.Setenv("PGPASSWORD", c.env)
		if c.env == "" {
			os.Unsetenv("PGPASSWORD") // restored by t.Setenv's cleanup
		}
		cfg, err := pgxpool.ParseConfig(c.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.ConnConfig.Password; got != c.want {
			t.Errorf("PGPASSWORD %q, URL %s: password %q, want %q", c.env, c.url, got, c.want)
		}
	}
}
