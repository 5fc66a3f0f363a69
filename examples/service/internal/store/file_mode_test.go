package store

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLiteFilesArePrivate: the database file and the -wal and -shm
// files SQLite makes beside it are readable and writable by the service's
// user only, after the store opens a new database and after a write (they
// hold customer names, phone numbers and gate codes).
func TestSQLiteFilesArePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haulplan.db")
	s := sqliteHarness.mustOpen(t, path)
	files := []string{path, path + "-wal", path + "-shm"}
	checkModes := func(when string) {
		t.Helper()
		for _, f := range files {
			fi, err := os.Stat(f)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if got := fi.Mode().Perm(); got != privateMode {
				t.Errorf("%s: %s has mode %v, want %v", when, filepath.Base(f), got, privateMode)
			}
		}
	}
	checkModes("after open")
	tn, _ := newTenant(t, s)
	newDelivery(t, s, tn.ID)
	checkModes("after a write")
}

// TestSQLiteWarnsOfASharedFile: a database file that other users may read
// (made before the service created its files private) is opened as it is,
// with a warning that names it.
func TestSQLiteWarnsOfASharedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haulplan.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cfg := testConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s, err := OpenSQLite(context.Background(), path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.Contains(logs.String(), "open to other users") || !strings.Contains(logs.String(), "file="+path+" ") {
		t.Errorf("no warning naming %s:\n%s", path, logs.String())
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("the file's mode became %v; it is the operator's to change", fi.Mode().Perm())
	}
}
