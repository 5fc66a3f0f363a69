module github.com/haulplan/haulplan

go 1.26

require (
	github.com/paulmach/orb v0.14.0
	gonum.org/v1/gonum v0.17.0
	pgregory.net/rapid v1.3.0
)
