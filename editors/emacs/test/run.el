;;; run.el --- headless test of admission-ls.el with eglot and flymake  -*- lexical-binding: t; -*-

;; Copyright The admission-ls authors
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; ADMISSION_LS=/path/to/admission-ls emacs -Q --batch -l editors/emacs/test/run.el
;; (with HOME pointing at a temporary folder).  Uses Debian's elpa-eglot (and elpa-yaml-mode when
;; installed) through `package-initialize'.  Opens editors/testdata/typo-policy.yaml, which must
;; land in `admission-ls-yaml-mode' and reach the server through eglot, whose diagnostics must show
;; in flymake at their lines; checks the shared detection cases and which testdata files attach.
;; Prints "emacs: N passed, N failed" and exits 1 on a failure.

;;; Code:

(require 'package)
;; Debian's elpa-* packages live here; its site-start adds the folder, which -Q skips.
(when (file-directory-p "/usr/share/emacs/site-lisp/elpa")
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'json)

(defvar admission-ls-test--here (file-name-directory (or load-file-name buffer-file-name)))
(defvar admission-ls-test--testdata (expand-file-name "../../testdata/" admission-ls-test--here))
(add-to-list 'load-path (expand-file-name ".." admission-ls-test--here))
(require 'admission-ls)

(defvar admission-ls-test--passed 0)
(defvar admission-ls-test--failed 0)

(defun admission-ls-test--check (ok what &optional detail)
  "Count and print the check WHAT (OK non-nil: passed), with DETAIL."
  (if ok (cl-incf admission-ls-test--passed) (cl-incf admission-ls-test--failed))
  (princ (format "%s %s%s\n" (if ok "ok  " "FAIL") what (if detail (format "\n     %s" detail) ""))))

(defun admission-ls-test--wait (predicate seconds)
  "Run timers and process output until PREDICATE holds or SECONDS pass; its last value."
  (let ((deadline (+ (float-time) seconds)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    value))

(defun admission-ls-test--open (file)
  "Visit FILE of the test data and run the post-command hook, as after the command that opened it."
  (find-file (expand-file-name file admission-ls-test--testdata))
  ;; eglot-ensure connects from post-command-hook; batch mode runs no commands.
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun admission-ls-test--run ()
  (let ((binary (or (getenv "ADMISSION_LS") "admission-ls")))
    (setq admission-ls-program binary
          admission-ls-settings '(:kubernetesVersion "1.31"))
    (admission-ls-eglot-setup)
    (admission-ls-test--check (executable-find binary) (format "the server binary %s runs" binary))

    ;; The shared detection cases.
    (let* ((cases (alist-get 'cases (json-read-file (expand-file-name "detection.json" admission-ls-test--testdata))))
           (wrong (cl-loop for case across cases
                           unless (eq (and (admission-ls-text-p (alist-get 'text case)) t)
                                      (eq (alist-get 'attach case) t))
                           collect (alist-get 'name case))))
      (admission-ls-test--check (and (>= (length cases) 10) (null wrong))
                                (format "detection cases of detection.json (%d)" (length cases))
                                (and wrong (string-join wrong ", "))))
    (dolist (file '("webhook.yaml" "widget-crd.yaml" "replica-policy.test.yaml"))
      (with-current-buffer (find-file-noselect (expand-file-name file admission-ls-test--testdata))
        (admission-ls-test--check (eq major-mode 'admission-ls-yaml-mode)
                                  (format "%s opens in admission-ls-yaml-mode" file))))
    (with-current-buffer (find-file-noselect (expand-file-name "object.yaml" admission-ls-test--testdata))
      (admission-ls-test--check (not (eq major-mode 'admission-ls-yaml-mode))
                                (format "object.yaml (a Deployment) stays in %s" major-mode)))

    ;; A policy with mistakes: eglot connects, flymake shows the server's diagnostics.
    (with-current-buffer (admission-ls-test--open "typo-policy.yaml")
      (admission-ls-test--check (eq major-mode 'admission-ls-yaml-mode)
                                (format "typo-policy.yaml opens in admission-ls-yaml-mode (parent %s)"
                                        (symbol-function 'admission-ls--parent-mode)))
      (let ((server (admission-ls-test--wait (lambda () (eglot-current-server)) 20)))
        (admission-ls-test--check server "eglot connected admission-ls to the buffer")
        (when server
          (let* ((found (admission-ls-test--wait
                         (lambda ()
                           (cl-find-if (lambda (d) (string-match-p "Unsupported value" (flymake-diagnostic-text d)))
                                       (flymake-diagnostics)))
                         30))
                 (all (mapcar (lambda (d) (format "%d: %s" (line-number-at-pos (flymake-diagnostic-beg d))
                                                  (flymake-diagnostic-text d)))
                              (flymake-diagnostics))))
            (admission-ls-test--check found "flymake shows the not-supported diagnostic" (string-join all " | "))
            (when found
              (admission-ls-test--check (= (line-number-at-pos (flymake-diagnostic-beg found)) 7)
                                        "on line 7 (failurePolicy: Sometimes)")
              (admission-ls-test--check (memq (flymake-diagnostic-type found) (quote (:error eglot-error))) (format "as an error (%s)" (flymake-diagnostic-type found))))
            (admission-ls-test--check
             (cl-find-if (lambda (d) (and (string-match-p "Syntax error" (flymake-diagnostic-text d))
                                          (= (line-number-at-pos (flymake-diagnostic-beg d)) 19)))
                         (flymake-diagnostics))
             "and the cel-syntax diagnostic on line 19"))
          (eglot-shutdown server))))
    (admission-ls-test--helm-template)
    (admission-ls-test--live-setting)
    (admission-ls-test--live-verdicts)
    (admission-ls-test--rename)
    (admission-ls-test--kyverno)
    (mapc #'admission-ls-test--family admission-ls-test--families)))

(defun admission-ls-test--helm-template ()
  "A chart template of a policy, with template actions, opens in `admission-ls-yaml-mode'."
  (let* ((chart (make-temp-file "admission-ls-chart" t))
         (file (expand-file-name "templates/policy.yaml" chart)))
    (make-directory (file-name-directory file))
    (with-temp-file (expand-file-name "Chart.yaml" chart)
      (insert "apiVersion: v2\nname: demo\nversion: 0.1.0\n"))
    (with-temp-file file
      (insert "{{- if .Values.enabled }}\napiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\n"
              "metadata:\n  name: {{ .Release.Name }}\n{{- end }}\n"))
    (with-current-buffer (find-file-noselect file)
      (admission-ls-test--check (eq major-mode 'admission-ls-yaml-mode)
                                "a Helm chart template of a Kyverno policy opens in admission-ls-yaml-mode"
                                major-mode)
      (kill-buffer))
    (delete-directory chart t)))

;; A policy whose modeline names a Deployment of 3 replicas, and one whose modeline names a file
;; that is not there.
(defvar admission-ls-test--live-policy
  (concat "# admission-ls: object=deploy.yaml\n"
          "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n"
          "metadata: {name: live}\nspec:\n  matchConstraints:\n    resourceRules:\n"
          "    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}\n"
          "  validations:\n  - expression: object.spec.replicas <= 2\n    message: at most 2 replicas\n"))

(defun admission-ls-test--verdicts-on-line (line)
  "The text of the verdict overlays at the end of LINE (1-based) of the current buffer."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- line))
    (mapconcat (lambda (o) (or (overlay-get o 'after-string) ""))
               (cl-remove-if-not (lambda (o) (overlay-get o 'admission-ls-verdict))
                                 (overlays-in (line-end-position) (line-end-position)))
               "")))

(defun admission-ls-test--wait-verdict (line regexp)
  "Wait for a verdict overlay on LINE matching REGEXP; the overlay text, or nil."
  (admission-ls-test--wait
   (lambda ()
     (let ((text (admission-ls-test--verdicts-on-line line)))
       (and (let ((case-fold-search nil)) (string-match-p regexp text)) text)))
   30))

(defun admission-ls-test--all-verdicts ()
  "Every verdict overlay of the buffer as LINE: TEXT, for failure messages."
  (mapconcat (lambda (o) (format "%d: %s" (line-number-at-pos (overlay-start o))
                                 (overlay-get o 'after-string)))
             admission-ls--verdict-overlays " | "))

(defun admission-ls-test--live-verdicts ()
  "Eglot 1.9 shows no inlay hints: the package's overlays show the live verdicts, with the
trace as help-echo, follow an edit, report a missing sample at the modeline, and go away when the
mode is turned off."
  (let* ((dir (make-temp-file "admission-ls-live" t))
         (file (expand-file-name "policy.yaml" dir)))
    (with-temp-file (expand-file-name "deploy.yaml" dir)
      (insert "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n"))
    (with-temp-file file (insert admission-ls-test--live-policy))
    (find-file file)
    (run-hooks 'post-command-hook)
    (let ((server (admission-ls-test--wait (lambda () (eglot-current-server)) 20)))
      (admission-ls-test--check server "eglot connected admission-ls to the policy with a modeline")
      (when server
        (admission-ls-test--check (eq (admission-ls--eglot-shows-hints-p) nil)
                                  "this eglot has no inlay hints of its own (eglot 1.9)")
        (admission-ls-test--check admission-ls-verdicts-mode "admission-ls-verdicts-mode is on")
        (let ((deny (admission-ls-test--wait-verdict 10 "✗ deny: at most 2 replicas")))
          (admission-ls-test--check deny "the validation's line shows ✗ deny: at most 2 replicas"
                                    (admission-ls-test--all-verdicts))
          (when deny
            (admission-ls-test--check
             (string-match-p "3 <= 2" (or (get-text-property (string-match "✗" deny) 'help-echo deny) ""))
             "its help-echo is the trace (3 <= 2)"
             (get-text-property (string-match "✗" deny) 'help-echo deny))))
        ;; Hints shown while the buffer is narrowed to its first line land on their own lines.
        (save-restriction
          (goto-char (point-min))
          (narrow-to-region (point-min) (line-end-position))
          (admission-ls--show-hints (vector (list :position (list :line 9 :character 4) :label "narrowed"))))
        (admission-ls-test--check (string-match-p "narrowed" (admission-ls-test--verdicts-on-line 10))
                                  "a hint shown in a narrowed buffer sits at the end of its line"
                                  (admission-ls-test--all-verdicts))
        ;; The edit that makes it allow: at most 5 replicas.
        (goto-char (point-min))
        (search-forward "<= 2")
        (replace-match "<= 5")
        ;; Eglot sends the change from an idle timer, which a batch Emacs never runs.
        (eglot--signal-textDocument/didChange)
        (let ((allow (admission-ls-test--wait-verdict 10 "✓ allow")))
          (admission-ls-test--check allow "after the edit to <= 5, the line shows ✓ allow"
                                    (admission-ls-test--all-verdicts))
          (admission-ls-test--check (and allow (not (string-match-p "deny" allow)))
                                    "and the deny overlay is gone" allow))
        ;; The modeline names a file that is not there.
        (goto-char (point-min))
        (search-forward "deploy.yaml")
        (replace-match "missing.yaml")
        (eglot--signal-textDocument/didChange)
        (let ((missing (admission-ls-test--wait-verdict 1 "⚠ object=missing.yaml: no such file or directory")))
          (admission-ls-test--check missing "a missing sample is reported at the modeline"
                                    (admission-ls-test--all-verdicts)))
        (admission-ls-verdicts-mode -1)
        (admission-ls-test--check (and (null admission-ls--verdict-overlays)
                                       (null (cl-find-if (lambda (o) (overlay-get o 'admission-ls-verdict))
                                                         (overlays-in (point-min) (point-max)))))
                                  "turning admission-ls-verdicts-mode off removes the overlays")
        (eglot-shutdown server)))
    (set-buffer-modified-p nil)
    (kill-buffer)
    (delete-directory dir t)))

(defun admission-ls-test--live-setting ()
  "`admission-ls-live-verdicts' nil turns the server's live verdicts off, unless the settings
name `:liveVerdicts' themselves."
  (let ((admission-ls-live-verdicts nil)
        (admission-ls-settings '(:kubernetesVersion "1.31")))
    (admission-ls-test--check (equal (admission-ls--settings-object)
                                     '(:kubernetesVersion "1.31" :liveVerdicts :json-false))
                              "admission-ls-live-verdicts nil sends liveVerdicts false"
                              (admission-ls--settings-object))
    (let ((admission-ls-settings '(:liveVerdicts t)))
      (admission-ls-test--check (equal (admission-ls--settings-object) '(:liveVerdicts t))
                                "but not over the settings' own liveVerdicts"))
    (admission-ls-test--check (not (admission-ls--own-hints-p))
                              "and no overlay is drawn"))
  ;; An eglot with inlay hints of its own (1.14+) shows them: the package declares nothing more.
  (cl-letf (((symbol-function 'eglot-inlay-hints-mode) #'ignore))
    (let ((capabilities (list :workspace (list :applyEdit t) :textDocument (list :hover nil))))
      (admission-ls-test--check (and (not (admission-ls--own-hints-p))
                                     (equal (admission-ls--with-hint-capabilities (copy-tree capabilities))
                                            capabilities))
                                "with eglot-inlay-hints-mode, the package leaves the hints to eglot")))
  (let ((capabilities (admission-ls--with-hint-capabilities
                       (list :workspace (list :applyEdit t) :textDocument (list :hover nil)))))
    (admission-ls-test--check (and (equal (plist-get (plist-get capabilities :workspace) :inlayHint)
                                          '(:refreshSupport t))
                                   (plist-get (plist-get capabilities :textDocument) :inlayHint)
                                   (plist-get (plist-get capabilities :workspace) :applyEdit))
                              "without it, the client declares inlay hints and their refresh"
                              capabilities)))

;; A policy with a variable used twice, for the rename.
(defvar admission-ls-test--rename-policy
  (concat "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n"
          "metadata: {name: rename-me}\nspec:\n  variables:\n  - name: limit\n    expression: \"5\"\n"
          "  validations:\n  - expression: object.spec.replicas <= variables.limit\n"
          "    messageExpression: \"'at most ' + string(variables.limit)\"\n"))

(defun admission-ls-test--rename ()
  "Renaming a variable through `eglot-rename' edits its name and both uses in the buffer."
  (let* ((dir (make-temp-file "admission-ls-rename" t))
         (file (expand-file-name "policy.yaml" dir)))
    (with-temp-file file (insert admission-ls-test--rename-policy))
    (find-file file)
    (run-hooks 'post-command-hook)
    (let ((server (admission-ls-test--wait (lambda () (eglot-current-server)) 20)))
      (admission-ls-test--check server "eglot connected admission-ls to the policy to rename")
      (when server
        ;; On `limit' of `variables.limit' in the validation (line 9).
        (goto-char (point-min))
        (forward-line 8)
        (search-forward "variables.li")
        (eglot-rename "maxReplicas")
        (let ((text (buffer-string)))
          (admission-ls-test--check
           (and (not (string-match-p "limit" text))
                (= (how-many "maxReplicas" (point-min) (point-max)) 3)
                (string-match-p "  - name: maxReplicas" text))
           "eglot-rename replaced the variable's name and its two uses" text))
        (eglot-shutdown server)))
    (set-buffer-modified-p nil)
    (kill-buffer)
    (delete-directory dir t)))

(defun admission-ls-test--request (server method line character &optional extra)
  "The answer of SERVER to METHOD at LINE and CHARACTER (0-based) of the current buffer."
  (jsonrpc-request server method
                   (append (list :textDocument (list :uri (eglot--path-to-uri buffer-file-name))
                                 :position (list :line line :character character))
                           extra)))

(defun admission-ls-test--labels (completion)
  "The labels of a COMPLETION answer (a list or a CompletionList)."
  (mapcar (lambda (item) (plist-get item :label))
          (if (vectorp completion) completion (plist-get completion :items))))

(defun admission-ls-test--kyverno ()
  "A Kyverno policy: diagnostics, hover with the function's docs, completion, signature help,
semantic tokens and the quick fix, through eglot."
  (with-current-buffer (admission-ls-test--open "kyverno-policy.yaml")
    (admission-ls-test--check (eq major-mode 'admission-ls-yaml-mode)
                              "kyverno-policy.yaml opens in admission-ls-yaml-mode")
    (let ((server (admission-ls-test--wait (lambda () (eglot-current-server)) 20)))
      (admission-ls-test--check server "eglot connected admission-ls to the Kyverno policy")
      (when server
        (let ((typo (admission-ls-test--wait
                     (lambda ()
                       (cl-find-if (lambda (d) (string-match-p "undefined field 'replics'" (flymake-diagnostic-text d)))
                                   (flymake-diagnostics)))
                     30)))
          (admission-ls-test--check (and typo (= (line-number-at-pos (flymake-diagnostic-beg typo)) 19))
                                    "flymake shows the misspelt field of the Kyverno policy on line 19"
                                    (mapconcat #'flymake-diagnostic-text (flymake-diagnostics) " | "))
          (let* ((hover (admission-ls-test--request server :textDocument/hover 20 37))
                 (text (plist-get (plist-get hover :contents) :value)))
            (admission-ls-test--check (and text (string-match-p "registry of the image reference" text))
                                      "hover on a Kyverno function shows its docs" text))
          (let ((labels (admission-ls-test--labels
                         (admission-ls-test--request server :textDocument/completion 20 35))))
            (admission-ls-test--check (and (member "registry" labels) (member "tag" labels))
                                      "completion offers the image's functions"
                                      (string-join labels ", ")))
          (let* ((help (admission-ls-test--request server :textDocument/signatureHelp 16 25))
                 (labels (mapcar (lambda (s) (plist-get s :label)) (plist-get help :signatures))))
            (admission-ls-test--check (cl-some (lambda (l) (string-match-p "image(string)" l)) labels)
                                      "signature help inside a Kyverno function call"
                                      (string-join labels " | ")))
          (let ((tokens (jsonrpc-request server :textDocument/semanticTokens/full
                                         (list :textDocument (list :uri (eglot--path-to-uri buffer-file-name))))))
            (admission-ls-test--check (> (length (plist-get tokens :data)) 0)
                                      "semantic tokens for the Kyverno policy's expressions"))
          (when typo
            (let* ((range (list :start (eglot--pos-to-lsp-position (flymake-diagnostic-beg typo))
                                :end (eglot--pos-to-lsp-position (flymake-diagnostic-end typo))))
                   (actions (jsonrpc-request server :textDocument/codeAction
                                             (list :textDocument (list :uri (eglot--path-to-uri buffer-file-name))
                                                   :range range
                                                   :context (list :diagnostics [])))))
              (admission-ls-test--check
               (cl-some (lambda (a) (string-match-p "replicas" (format "%S" (plist-get a :edit)))) actions)
               "a quick fix replaces the misspelt field"
               (format "%S" actions)))))
        (eglot-shutdown server)))))

;; One document of each family: (FILE LINE HOVER-LINE HOVER-CHARACTER HOVER-SAYS LENS), the line of
;; its misspelt field's diagnostic 1-based, the hover position 0-based.
(defvar admission-ls-test--families
  '(("kyverno-policy.yaml" 19 16 20 "fn image(string)" "Evaluate replica-limit-kyverno…")
    ("gatekeeper-template.yaml" 25 23 61 "fn string.startsWith(string)" "Evaluate k8smaxreplicas…")
    ("dra-claim.yaml" 16 13 38 "fn string.startsWith(string)" "Evaluate one-gpu…")
    ("authn-config.yaml" 16 13 34 "fn string.startsWith(string)"
     "Evaluate AuthenticationConfiguration…")))

(defun admission-ls-test--family (case)
  "The family document of CASE: its diagnostic in flymake, hover and the evaluate lens."
  (pcase-let ((`(,file ,line ,hover-line ,hover-character ,says ,lens) case))
    ;; A buffer left by an earlier check is visited afresh, so eglot connects to it again.
    (let ((old (get-file-buffer (expand-file-name file admission-ls-test--testdata))))
      (when old (kill-buffer old)))
    (with-current-buffer (admission-ls-test--open file)
      (let ((server (admission-ls-test--wait (lambda () (eglot-current-server)) 20)))
        (admission-ls-test--check server (format "eglot connected admission-ls to %s" file))
        (when server
          (let ((typo (admission-ls-test--wait
                       (lambda ()
                         (cl-find-if (lambda (d) (string-match-p "undefined field" (flymake-diagnostic-text d)))
                                     (flymake-diagnostics)))
                       30)))
            (admission-ls-test--check (and typo (= (line-number-at-pos (flymake-diagnostic-beg typo)) line))
                                      (format "%s: flymake shows the misspelt field on line %d" file line)
                                      (mapconcat #'flymake-diagnostic-text (flymake-diagnostics) " | ")))
          (let* ((hover (admission-ls-test--request server :textDocument/hover hover-line hover-character))
                 (text (plist-get (plist-get hover :contents) :value)))
            (admission-ls-test--check (and text (string-match-p (regexp-quote says) text))
                                      (format "%s: hover shows %s" file says) text))
          (let* ((lenses (jsonrpc-request server :textDocument/codeLens
                                          (list :textDocument (list :uri (eglot--path-to-uri buffer-file-name)))))
                 (titles (mapcar (lambda (l) (plist-get (plist-get l :command) :title)) lenses)))
            (admission-ls-test--check (equal titles (list lens))
                                      (format "%s: the evaluate lens" file)
                                      (string-join titles " | ")))
          (eglot-shutdown server))))))

(defun admission-ls-test--dir-locals ()
  "A cloned repository's .dir-locals.el cannot choose the program eglot runs."
  (let* ((dir (make-temp-file "admission-ls-dir-locals" t))
         (file (expand-file-name "policy.yaml" dir))
         (global admission-ls-program))
    (with-temp-file (expand-file-name ".dir-locals.el" dir)
      (insert "((nil . ((admission-ls-program . \"./evil\"))))\n"))
    (copy-file (expand-file-name "replica-policy.yaml" admission-ls-test--testdata) file)
    (let ((enable-local-variables t))
      (with-current-buffer (find-file-noselect file)
        (admission-ls-test--check (equal admission-ls-program global)
                                  "a .dir-locals.el does not set admission-ls-program"
                                  admission-ls-program)
        (admission-ls-test--check (equal (car (admission-ls--command)) global)
                                  "and the server command is the user's program")
        (kill-buffer)))
    (delete-directory dir t)))

(defun admission-ls-test--compilation ()
  "`admission-ls-test' lists the failing case of a suite as a compilation error at its line."
  (let* ((admission-ls-program (or (getenv "ADMISSION_LS") "admission-ls"))
         (suite (expand-file-name "replica-policy-wrong.test.yaml" admission-ls-test--testdata))
         (buffer (admission-ls-test suite))
         (done (admission-ls-test--wait
                (lambda ()
                  (with-current-buffer buffer
                    (save-excursion
                      (goto-char (point-min))
                      (re-search-forward "^admission-ls test \\(finished\\|exited\\)" nil t))))
                60)))
    (admission-ls-test--check done "admission-ls-test ran the suite in a compilation buffer")
    (with-current-buffer buffer
      (admission-ls-test--check (derived-mode-p 'compilation-mode) "the buffer is in compilation-mode")
      (admission-ls-test--check (string-match-p "1 passed, 1 failed" (buffer-string))
                                "its summary counts the passing and the failing case"
                                (buffer-string))
      (goto-char (point-min))
      (compilation-next-error 1)
      (let* ((message (get-text-property (point) 'compilation-message))
             (loc (and message (compilation--message->loc message)))
             (file (and loc (caar (compilation--loc->file-struct loc)))))
        (admission-ls-test--check (and loc (equal (expand-file-name file) suite)
                                       (= (compilation--loc->line loc) 17)
                                       (= (compilation--loc->col loc) 5)
                                       (string-match-p "five replicas are wrongly expected to pass failed"
                                                       (buffer-substring (point) (line-end-position))))
                                  "next-error goes to the failing case: the suite file, line 17, column 5"
                                  (buffer-substring (line-beginning-position) (line-end-position))))
      (admission-ls-test--check (not (ignore-errors (compilation-next-error 1) t))
                                "the passing case and the summary are not errors"))))

(condition-case err
    (admission-ls-test--compilation)
  (error (admission-ls-test--check nil (format "error: %S" err))))
(condition-case err
    (admission-ls-test--dir-locals)
  (error (admission-ls-test--check nil (format "error: %S" err))))
(condition-case err
    (admission-ls-test--run)
  (error (admission-ls-test--check nil (format "error: %S" err))))
;; The plain closing line CI reads.
(princ (format "emacs: %d passed, %d failed\n" admission-ls-test--passed admission-ls-test--failed))
(kill-emacs (if (and (= admission-ls-test--failed 0) (> admission-ls-test--passed 0)) 0 1))

;;; run.el ends here
