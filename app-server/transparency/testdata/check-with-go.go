// Checks what the escrow server publishes with Go's own implementations, independent of ours:
// golang.org/x/mod/sumdb/note for the signed checkpoint, golang.org/x/mod/sumdb/tlog for the proofs.
// Input (JSON on stdin): vkey, note, and proofs against the checkpoint's tree; prints "ok" or fails.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type input struct {
	Vkey      string `json:"vkey"`
	Note      string `json:"note"`
	Inclusion []struct {
		Index    int64    `json:"index"`
		LeafHash string   `json:"leaf_hash"`
		Proof    []string `json:"proof"`
	} `json:"inclusion"`
	Consistency []struct {
		From     int64    `json:"from"`
		FromRoot string   `json:"from_root"`
		Proof    []string `json:"proof"`
	} `json:"consistency"`
}

func hash(s string) tlog.Hash {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != tlog.HashSize {
		fail("bad hash %q", s)
	}
	var h tlog.Hash
	copy(h[:], b)
	return h
}

func hashes(list []string) []tlog.Hash {
	out := make([]tlog.Hash, len(list))
	for i, s := range list {
		out[i] = hash(s)
	}
	return out
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail("input: %v", err)
	}
	verifier, err := note.NewVerifier(in.Vkey)
	if err != nil {
		fail("vkey: %v", err)
	}
	n, err := note.Open([]byte(in.Note), note.VerifierList(verifier))
	if err != nil {
		fail("note: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		fail("checkpoint text: %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("size: %v", err)
	}
	root := hash(lines[2])
	for _, p := range in.Inclusion {
		if err := tlog.CheckRecord(hashes(p.Proof), size, root, p.Index, hash(p.LeafHash)); err != nil {
			fail("inclusion of %d in %d: %v", p.Index, size, err)
		}
	}
	for _, p := range in.Consistency {
		if err := tlog.CheckTree(hashes(p.Proof), size, root, p.From, hash(p.FromRoot)); err != nil {
			fail("consistency %d to %d: %v", p.From, size, err)
		}
	}
	fmt.Printf("ok: note by %s, size %d, %d inclusion and %d consistency proofs\n", verifier.Name(), size, len(in.Inclusion), len(in.Consistency))
}
