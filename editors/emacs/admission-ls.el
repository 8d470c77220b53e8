;;; admission-ls.el --- admission-ls for Emacs: eglot and lsp-mode configuration  -*- lexical-binding: t; -*-

;; Copyright The admission-ls authors
;; SPDX-License-Identifier: Apache-2.0
;; Package-Requires: ((emacs "27.1"))

;;; Commentary:

;; Puts YAML files holding admission documents into `admission-ls-yaml-mode' (a YAML mode, derived
;; from `yaml-ts-mode' or `yaml-mode' when present) and starts the admission-ls language server for
;; them, with eglot (built into Emacs 29+, the `eglot' package before) or lsp-mode.  Other YAML
;; files keep their usual mode and server.
;;
;; The files attached are those of the VS Code extension and the Neovim plugin (one rule, see
;; `admission-ls-text-p'): a `.yaml'/`.yml' file with, in its first MiB, an `apiVersion:' line of
;; `admissionregistration.k8s.io' (policies, bindings, ValidatingWebhookConfiguration,
;; MutatingWebhookConfiguration), `policies.kyverno.io' (Kyverno's CEL policies),
;; `templates.gatekeeper.sh' or `constraints.gatekeeper.sh', a `kind: PolicyTest' line, or both an
;; `apiVersion:' line and a `kind:' line of: `apiextensions.k8s.io' CustomResourceDefinition,
;; `cli.kyverno.io' Test, `test.gatekeeper.sh' Suite, `resource.k8s.io' DeviceClass,
;; ResourceClaim, ResourceClaimTemplate or ResourceSlice, `apiserver.config.k8s.io'
;; AuthenticationConfiguration or AuthorizationConfiguration.  Helm chart templates (`.yaml' files
;; of a chart's `templates' folder with `{{ ... }}' actions) follow the same rule: the content test
;; of `magic-mode-alist' comes before any mode a file name would pick.
;;
;;   (add-to-list 'load-path "/path/to/admission-ls/editors/emacs")
;;   (require 'admission-ls)
;;   (setq admission-ls-settings '(:kubernetesVersion "1.31"))   ; optional
;;   (admission-ls-eglot-setup)      ; or (admission-ls-lsp-mode-setup) for lsp-mode
;;
;; Diagnostics show through flymake (eglot) or flycheck/flymake (lsp-mode).
;;
;; `admission-ls-test' runs test suites (the current file's, or with a prefix argument those under
;; a file or folder you name) with `admission-ls test --format compact' in a compilation buffer:
;; each failing case is a `file:line:column: error:' line, so `next-error' (M-g n) visits the cases
;; that failed.

;;; Code:

(require 'cl-lib)

(defvar eglot-server-programs)
(defvar eglot-workspace-configuration)
(defvar lsp-language-id-configuration)
(declare-function eglot-ensure "eglot")
(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")
(declare-function lsp-activate-on "lsp-mode")
(declare-function lsp-deferred "lsp-mode")

(defgroup admission-ls nil
  "Kubernetes admission policies with the admission-ls language server."
  :group 'tools
  :prefix "admission-ls-")

(defcustom admission-ls-program "admission-ls"
  "The admission-ls binary: a name looked up on `exec-path', or a file name."
  :type 'string)

(defcustom admission-ls-settings nil
  "The settings section `admissionLs', as a plist.
For example
  (:kubernetesVersion \"1.31\" :diagnostics (:disabled [\"unknown-field\"])).
Sent as initializationOptions and answered to workspace/configuration."
  :type 'sexp)

(defconst admission-ls--key "^[ \t]*\\(?:-[ \t]+\\)?[\"']?%s[\"']?[ \t]*:[ \t]*[\"']?"
  "A YAML key line, maybe a list item, key and value maybe quoted.")

(defun admission-ls--line (key value)
  "A regexp for a line with KEY and a value starting with VALUE (a regexp)."
  (concat (format admission-ls--key key) value))

;; Groups whose every document is attached, and the PolicyTest kind.
(defconst admission-ls--alone
  (list (admission-ls--line "apiVersion" "admissionregistration\\.k8s\\.io/")
        (admission-ls--line "apiVersion" "policies\\.kyverno\\.io/")
        (admission-ls--line "apiVersion" "templates\\.gatekeeper\\.sh/")
        (admission-ls--line "apiVersion" "constraints\\.gatekeeper\\.sh/")
        (admission-ls--line "kind" "PolicyTest\\_>"))
  "Lines that alone make a file one the server checks.")

(defun admission-ls--kinds (&rest kinds)
  "A regexp for a `kind:' line of one of KINDS."
  (admission-ls--line "kind" (concat (regexp-opt kinds) "\\_>")))

;; Groups whose documents are attached for some kinds only.
(defconst admission-ls--paired
  (list (cons (admission-ls--line "apiVersion" "apiextensions\\.k8s\\.io/")
              (admission-ls--kinds "CustomResourceDefinition"))
        (cons (admission-ls--line "apiVersion" "cli\\.kyverno\\.io/")
              (admission-ls--kinds "Test"))
        (cons (admission-ls--line "apiVersion" "test\\.gatekeeper\\.sh/")
              (admission-ls--kinds "Suite"))
        (cons (admission-ls--line "apiVersion" "resource\\.k8s\\.io/")
              (admission-ls--kinds "DeviceClass" "ResourceClaim" "ResourceClaimTemplate"
                                   "ResourceSlice"))
        (cons (admission-ls--line "apiVersion" "apiserver\\.config\\.k8s\\.io/")
              (admission-ls--kinds "AuthenticationConfiguration" "AuthorizationConfiguration")))
  "Pairs of an apiVersion line and a kind line that together make a file one the server checks.")

(defun admission-ls-text-p (text)
  "Non-nil when TEXT holds a document the server checks."
  (let ((case-fold-search nil)
        (head (if (> (length text) 1048576) (substring text 0 1048576) text)))
    (or (cl-some (lambda (line) (string-match-p line head)) admission-ls--alone)
        (cl-some (lambda (pair)
                   (and (string-match-p (car pair) head) (string-match-p (cdr pair) head)))
                 admission-ls--paired))))

(defun admission-ls-buffer-p ()
  "Non-nil when the current buffer is a YAML file holding an admission document."
  (and buffer-file-name
       (string-match-p "\\.ya?ml\\'" buffer-file-name)
       (admission-ls-text-p
        (buffer-substring-no-properties (point-min) (min (point-max) (1+ 1048576))))))

(defalias 'admission-ls--parent-mode
  (cond ((and (fboundp 'yaml-ts-mode) (fboundp 'treesit-language-available-p)
              (treesit-language-available-p 'yaml))
         'yaml-ts-mode)
        ((fboundp 'yaml-mode) 'yaml-mode)
        (t 'prog-mode))
  "The YAML mode `admission-ls-yaml-mode' builds on.")

;;;###autoload
(define-derived-mode admission-ls-yaml-mode admission-ls--parent-mode "YAML[admission]"
  "A YAML mode for files holding Kubernetes admission documents.
admission-ls checks them.")

;;;###autoload
(add-to-list 'magic-mode-alist '(admission-ls-buffer-p . admission-ls-yaml-mode))

(defun admission-ls--command ()
  "The server command line."
  (list admission-ls-program "serve" "--stdio"))

(defun admission-ls--settings-object ()
  "`admission-ls-settings' as a JSON object (an empty one when nil)."
  (or admission-ls-settings (make-hash-table)))

;;;###autoload
(defun admission-ls-eglot-setup ()
  "Use eglot for `admission-ls-yaml-mode' buffers, started on opening."
  (require 'eglot)
  (add-to-list 'eglot-server-programs
               `((admission-ls-yaml-mode :language-id "yaml")
                 . (lambda (&rest _)
                     (append (admission-ls--command)
                             (list :initializationOptions (admission-ls--settings-object))))))
  (setq-default eglot-workspace-configuration
                (cons (cons :admissionLs (admission-ls--settings-object))
                      (assq-delete-all :admissionLs (default-value 'eglot-workspace-configuration))))
  (add-hook 'admission-ls-yaml-mode-hook #'eglot-ensure))

;;;###autoload
(defun admission-ls-lsp-mode-setup ()
  "Register admission-ls with lsp-mode for `admission-ls-yaml-mode' buffers.
The server starts when such a buffer opens."
  (require 'lsp-mode)
  (add-to-list 'lsp-language-id-configuration '(admission-ls-yaml-mode . "yaml"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection #'admission-ls--command)
    :activation-fn (lsp-activate-on "yaml")
    :major-modes '(admission-ls-yaml-mode)
    :priority 1
    :server-id 'admission-ls
    ;; The server reads the settings from initializationOptions (workspace/configuration is
    ;; answered by lsp-mode from its registered custom settings, none for admissionLs).
    :initialization-options #'admission-ls--settings-object))
  (add-hook 'admission-ls-yaml-mode-hook #'lsp-deferred))

(defvar compilation-error-regexp-alist)

(define-derived-mode admission-ls-test-mode compilation-mode "admission-ls test"
  "The output of `admission-ls test --format compact'.
Each failing case is one located line."
  ;; The compact lines are `file:line:column: error: ...', which `gnu' reads.
  (setq-local compilation-error-regexp-alist '(gnu)))

(defun admission-ls--test-target (ask)
  "The path `admission-ls-test' runs.
Asked for when ASK, else the current file or folder."
  (cond (ask (read-file-name "Run the suites in (file or folder): " nil nil t))
        (buffer-file-name buffer-file-name)
        (t default-directory)))

;;;###autoload
(defun admission-ls-test (&optional path)
  "Run the test suites of PATH in a compilation buffer.
The command is `admission-ls test --format compact'.  PATH is the current file by default; with a prefix argument, a file or folder is asked for (a
folder runs every suite under it).  Each failing case is a located error for `next-error'."
  (interactive (list (admission-ls--test-target current-prefix-arg)))
  (let* ((path (expand-file-name (or path (admission-ls--test-target nil))))
         (default-directory (if (file-directory-p path)
                                (file-name-as-directory path)
                              (file-name-directory path))))
    (compilation-start
     (mapconcat #'shell-quote-argument
                (list admission-ls-program "test" "--format" "compact" path)
                " ")
     #'admission-ls-test-mode)))

(provide 'admission-ls)
;;; admission-ls.el ends here
