package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/haulplan/haulplan/examples/service/internal/api"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// A tenant is created, its client asks for a token, and the token reads a
// job that does not exist.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "haulplan-example")
	defer os.RemoveAll(dir)
	st, err := store.OpenSQLite(context.Background(), filepath.Join(dir, "haulplan.db"), store.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	consumer, clientID, secret, err := api.CreateTenant(context.Background(), st, "Acme")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(api.New(api.Config{Store: st, Logger: slog.New(slog.DiscardHandler)}))
	defer srv.Close()

	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {clientID}, "client_secret": {secret}}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/oauth/v1/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(api.ConsumerHeader, consumer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	var token struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int    `json:"expires_in"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&token)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, token.TokenType, token.ExpiresIn)

	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/v1/job/no-such-job", nil)
	req.Header.Set("Authorization", "Bearer "+token.AccessToken)
	req.Header.Set(api.ConsumerHeader, consumer)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var errs struct {
		Errors []struct{ Code, Field string } `json:"errors"`
	}
	_ = json.Unmarshal(body, &errs)
	fmt.Println(resp.StatusCode, errs.Errors[0].Code, errs.Errors[0].Field)
	// Output:
	// 200 Bearer 3600
	// 404 NOT_FOUND jobId
}
