package lsp

import (
	"context"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"
)

// DidChangeWorkspaceFolders follows the client's workspace folders while
// the server runs (advertised in workspace.workspaceFolders): the folders
// a file with neither a project config nor a repository above it takes
// as its project root, and the folders workspace/symbol searches. Open
// documents are placed again (their project root may change) and
// re-checked; the symbol index is walked again on its next query.
func (s *server) DidChangeWorkspaceFolders(ctx context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	folders := s.session.changeFolders(folderPaths(p.Event.Added), folderPaths(p.Event.Removed))
	s.log.Info("workspace folders changed", "folders", folders)
	s.files.setFolders(folders)
	fresh := s.session.reconfigure()
	s.reportProviderProblems(s.session.takeProblems())
	s.diags.settingsChanged(fresh)
	return nil
}

// folderPaths are the file paths of folders (those with a file URI).
func folderPaths(folders []protocol.WorkspaceFolder) []string {
	var out []string
	for _, f := range folders {
		if p := uriPath(string(f.URI)); p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// changeFolders removes and adds workspace folders and returns the
// folders now.
func (s *session) changeFolders(added, removed []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	folders := slices.DeleteFunc(slices.Clone(s.folders), func(f string) bool { return slices.Contains(removed, filepath.Clean(f)) })
	for _, a := range added {
		if !slices.Contains(folders, a) {
			folders = append(folders, a)
		}
	}
	s.folders = folders
	return slices.Clone(folders)
}
