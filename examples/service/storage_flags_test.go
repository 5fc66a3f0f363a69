package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestStorageFlags: the served /openapi.json states the quota and the
// retention the process was started with, and a retention under an hour
// (other than 0, forever) or a quota that does not read is refused.
func TestStorageFlags(t *testing.T) {
	p := start(t, "-db", filepath.Join(t.TempDir(), "haulplan.db"),
		"-tenant-storage-quota", "3GiB", "-job-retention", "48h", "-delivery-retention", "0")
	resp, err := http.Get(p.base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Info struct {
			Description string `json:"description"`
		} `json:"info"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Each consumer may store 3 GiB", "is removed 2 days after its end",
		"a closed delivery (DELIVERED, RETURNED or CANCELLED) and its history until an operator removes them"} {
		if !strings.Contains(doc.Info.Description, want) {
			t.Errorf("the served description lacks %q:\n%s", want, doc.Info.Description)
		}
	}

	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"-job-retention", "10m", "-delivery-retention", "-1h"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "-job-retention 10m0s") || !strings.Contains(stderr.String(), "-delivery-retention -1h0m0s") {
		t.Errorf("retentions under an hour: exit %d, %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run(t.Context(), []string{"-tenant-storage-quota", "lots"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "-tenant-storage-quota") {
		t.Errorf("a quota that does not read: exit %d, %s", code, stderr.String())
	}
}
