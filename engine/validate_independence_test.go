package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// requestFiles hold the request and plan types, their JSON form, Check and
// the rules a request states (request_rules.go), and the trailer bounds a
// plan reports, which are defined on the request alone (trailer_bounds.go,
// with the loadplan view of the request it counts with, and
// fleet_bounds.go, the bounds on shifts and trailer units), and the
// comparison of two plans (plan_changes.go and its JSON form), and the
// lock of a re-plan with its check (plan_lock.go), which
// neither plans nor validates: what the planner and Validate share. Every other file of the package that is not validate.go
// or validate_*.go is the planner's.
var requestFiles = map[string]bool{
	"doc.go": true, "check.go": true, "decode.go": true, "objective.go": true, "presets.go": true,
	"request.go": true, "request_json.go": true, "request_rules.go": true,
	"result.go": true, "result_json.go": true, "plan_changes.go": true, "plan_changes_json.go": true,
	"trailer_bounds.go": true, "loadplan_view.go": true, "fleet_bounds.go": true, "plan_lock.go": true,
}

// isValidatorFile tells Validate's files: validate.go and validate_*.go.
func isValidatorFile(name string) bool {
	return name == "validate.go" || strings.HasPrefix(name, "validate_")
}

// TestValidateOwesNothingToThePlanner: Validate's files name nothing
// declared in the planner's files (every file of the package but the
// validator's and requestFiles), call no method the planner's types
// declare, and import neither routeplan nor loadplan.
func TestValidateOwesNothingToThePlanner(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var plannerFiles, files []string
	for _, name := range sources {
		switch {
		case strings.HasSuffix(name, "_test.go"):
		case isValidatorFile(name):
			files = append(files, name)
		case !requestFiles[name]:
			plannerFiles = append(plannerFiles, name)
		}
	}
	if len(plannerFiles) < 5 {
		t.Fatalf("only %d planner files found: %v", len(plannerFiles), plannerFiles)
	}
	planner := map[string]bool{} // top-level names of the planner's files
	methods := map[string]bool{} // methods declared there
	for _, name := range plannerFiles {
		f := parse(name)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					methods[d.Name.Name] = true
				} else {
					planner[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						planner[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							planner[n.Name] = true
						}
					}
				}
			}
		}
	}
	checked := 0
	for _, name := range files {
		checked++
		f := parse(name)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasSuffix(p, "/routeplan") || strings.HasSuffix(p, "/loadplan") {
				t.Errorf("%s imports %s", name, p)
			}
		}
		selected := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				selected[n.Sel] = true
				if methods[n.Sel.Name] {
					t.Errorf("%s: .%s is the name of a planner method", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.Ident:
				if !selected[n] && planner[n.Name] {
					t.Errorf("%s: %s is declared by the planner", fset.Position(n.Pos()), n.Name)
				}
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("only %d validator files found", checked)
	}
}
