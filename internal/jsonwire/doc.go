// Package jsonwire is the library's one JSON layer: a strict reader that
// tells an absent member from a null one and reports every problem of a
// document with its full path, and a small writer.
//
// The lexer accepts exactly RFC 8259 JSON in valid UTF-8 (it is fuzzed
// against encoding/json: it never accepts what encoding/json rejects as
// syntax, and reads what it accepts to the same values), nests at most
// MaxDepth levels, never panics and never builds a tree.
//
// On it, a Decoder reads a document against descriptions of its objects:
// an Object lists its members once, each a name and a function that reads
// the member's value into a field. The Decoder keeps the path of the value
// being read ("pallets[3].temperature") and collects every problem (an
// unknown or repeated member, a value of the wrong JSON type, a value that
// does not read, such as an enumeration name or a duration, a required
// member that is absent) as an Error with its path, a Reason and a message
// in the document's terms ("must be a number of kilograms, not \"12\""), up
// to MaxErrors problems followed by one entry that counts the rest, or
// each to a Sink as it is found. Member names match exactly, case
// included. A syntax error stops the reading and is reported alone, with
// its line and column: what was found in a document that is not JSON
// means nothing.
//
// The package imports nothing of the library's, so that every package may
// use it; callers turn Errors into their own violation types and codes.
package jsonwire
