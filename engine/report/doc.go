// Package report turns a plan into what people read: the dispatch summary
// workbook (DispatchSummary, .xlsx), the routes and stores as GeoJSON
// (GeoJSON), pictures as SVG (RouteMap; Schedule, the drivers' shifts with
// their trips; DockSchedule, the loadings at the dock doors; TrailerFloor)
// and one self-contained HTML page that holds them all (HTML).
//
// Every instant is shown in the request's time zone: the DC's dock hours',
// else the first store's, else UTC, the rule engine.Validate's messages
// follow. Durations read hours:minutes. Rows, zones and stops are numbered
// from 1, as a person counts them (the plan counts them from 0, as
// indices), and a count of one reads in the singular: "1 stop".
//
// The pictures are drawn by hand with a small SVG writer (svg.go), not with
// gonum.org/v1/plot. A route map, a trailer floor and a Gantt chart are
// rectangles, polylines, circles and text at coordinates the package
// computes anyway (a projection, millimetres on the floor, minutes on a
// time axis); plot's axes, legends and tick marks would have to be bent to
// each of them (an equal-aspect map, a floor with no axes, categorical
// rows), and its SVG backend embeds fonts, which makes every file hundreds
// of kilobytes. By hand the files stay small, the elements carry ids and
// data attributes the tests read back, and the package needs no
// dependency beyond excelize and orb.
//
// The package imports engine and is imported by callers (the quickstart,
// the HTTP service); engine never imports it.
package report
