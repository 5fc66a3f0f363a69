package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/haulplan/haulplan/delivery"
)

// FuzzDecodeTokenForm: the token form reader never panics, and what it
// accepts agrees with net/url: grant_type client_credentials, each
// parameter once, the values as url.ParseQuery reads them.
func FuzzDecodeTokenForm(f *testing.F) {
	for _, s := range []string{
		"grant_type=client_credentials",
		"grant_type=client_credentials&client_id=a&client_secret=b%2Bc",
		"grant_type=client_credentials&grant_type=x",
		"grant_type=password", "", "%zz", "a=b;c=d", "grant_type=client_credentials&scope=x+y",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		form, err := decodeTokenForm(body)
		if err != nil {
			var fe *formError
			if !asFormError(err, &fe) || fe.code == "" || fe.description == "" {
				t.Fatalf("an error that is not a form error: %v", err)
			}
			return
		}
		values, perr := url.ParseQuery(string(body))
		if perr != nil {
			t.Fatalf("accepted what url.ParseQuery rejects: %q", body)
		}
		if form.GrantType != "client_credentials" || len(values["grant_type"]) != 1 {
			t.Fatalf("accepted grant %q from %q", form.GrantType, body)
		}
		if len(values["client_id"]) > 1 || len(values["client_secret"]) > 1 ||
			form.ClientID != values.Get("client_id") || form.ClientSecret != values.Get("client_secret") {
			t.Fatalf("read %+v from %q, url.ParseQuery reads %v", form, body, values)
		}
	})
}

func asFormError(err error, fe **formError) bool {
	e, ok := err.(*formError)
	*fe = e
	return ok
}

// FuzzDecodeStatusBody: the status body reader never panics; what it
// accepts is a known status that encoding/json reads from the body too,
// and every refusal lists at least one error with a code and a path.
func FuzzDecodeStatusBody(f *testing.F) {
	for _, s := range []string{
		`{"status":"DRIVER_ASSIGNED"}`, `{"status":"LOST"}`, `{"status":null}`, `{}`, `[]`, `{"status":1}`,
		`{"status":"DISPATCHED","status":"DELIVERED"}`, `{"status":"CANCELLED","x":1}`, `{"status":"DELIVERED"} x`, `{"st`,
		`{"status":"\u0044ELIVERED"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		status, errs := decodeStatusBody(body)
		if len(errs) > 0 {
			for _, e := range errs {
				if e.Code == "" || e.Field == "" || e.Description == "" {
					t.Fatalf("an incomplete error %+v for %q", e, body)
				}
			}
			return
		}
		if !status.Valid() {
			t.Fatalf("accepted the unknown status %q from %q", status, body)
		}
		var oracle struct {
			Status *string `json:"status"`
		}
		if err := json.Unmarshal(body, &oracle); err != nil || oracle.Status == nil || delivery.Status(*oracle.Status) != status {
			t.Fatalf("accepted %q from %q; encoding/json reads %v (%v)", status, body, oracle.Status, err)
		}
	})
}

// FuzzReplanRequest: the re-plan's request builder never panics. What it
// accepts is what encoding/json reads as one object, and it writes a JSON
// object with the body's members but "previous", in their order and as
// sent, then the plan as "previous"; sentPrevious says whether the body
// had one. What it refuses, encoding/json does not read as an object.
func FuzzReplanRequest(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"dc":{"id":"DC"},"lock":{"routes":["R1"]}}`, `{"previous":null}`, `{"a":1,"previous":{"x":[1]},"b":"}"}`,
		` { "a" : [ 1 , 2 ] , "b" : { } } `, `{"previ\u006fus":1}`, `{"a":1,"a":2}`, `[]`, `null`, `{"a":1} {}`, `{"a":`,
		`{"a":"\ud800"}`, "{\"a\":\"\xff\"}", `{"":0}`,
	} {
		f.Add([]byte(s))
	}
	plan := []byte(`{"routes":[],"unassigned":[],"metrics":{"routes":0}}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		request, sentPrevious, err := replanRequest(body, plan)
		var members []rawMember
		oerr := walkObject(body, &members)
		if err != nil {
			if oerr == nil {
				t.Fatalf("refused %q (%v), which encoding/json reads as an object", body, err)
			}
			return
		}
		if oerr != nil {
			t.Fatalf("accepted %q, which encoding/json does not read as an object: %v", body, oerr)
		}
		var got []rawMember
		if err := walkObject(request, &got); err != nil {
			t.Fatalf("wrote %q from %q: not a JSON object: %v", request, body, err)
		}
		var want []rawMember
		had := false
		for _, m := range members {
			if m.name == "previous" {
				had = true
				continue
			}
			want = append(want, m)
		}
		want = append(want, rawMember{"previous", string(plan)})
		if had != sentPrevious {
			t.Fatalf("sentPrevious %v for %q", sentPrevious, body)
		}
		if len(got) != len(want) {
			t.Fatalf("wrote %q from %q: members %v, want %v", request, body, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("wrote %q from %q: member %d is %v, want %v", request, body, i, got[i], want[i])
			}
		}
	})
}

// rawMember is a member of a JSON object: its name, and its value as
// written, blanks between tokens removed.
type rawMember struct{ name, value string }

// walkObject reads data as one JSON object with encoding/json, the
// oracle of FuzzReplanRequest, appending its members to out.
func walkObject(data []byte, out *[]rawMember) error {
	var top json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(top))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not an object: %v %v", tok, err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, v); err != nil {
			return err
		}
		*out = append(*out, rawMember{tok.(string), compact.String()})
	}
	return nil
}
