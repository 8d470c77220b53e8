//! Hostile input: every input named in the foundation issue's "Bad input" section goes through the
//! same diagnostics the CLI and the server produce, on a thread with the default 2 MiB stack. Each
//! must come back (no panic, no stack overflow, no hang) with the diagnostic that explains it.
//!
//! The guard against hangs is a generous deadline on the worker thread; speed itself is measured by
//! the benches, never here.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use admission_ls::ide::{DiagnosticsConfig, LineIndex, diagnostics_for_text};
use expect_test::{Expect, expect};

/// Runs the diagnostics of `text` on a fresh thread and summarises them: the count per code and the
/// 1-based line of the first diagnostic of each code.
#[track_caller]
fn check_survives(text: String, expect: Expect) {
    let (sender, receiver) = mpsc::channel();
    let worker = thread::spawn(move || {
        let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
        let index = LineIndex::new(&text);
        let mut summary: Vec<(String, usize, u32)> = Vec::new();
        for diagnostic in &diagnostics {
            let line = index
                .line_col(diagnostic.range.start(), admission_ls::ide::Encoding::Utf8)
                .line
                + 1;
            match summary
                .iter_mut()
                .find(|(code, _, _)| code == diagnostic.code.as_str())
            {
                Some(entry) => entry.1 += 1,
                None => summary.push((diagnostic.code.as_str().to_string(), 1, line)),
            }
        }
        let _ = sender.send(summary);
    });
    let summary = match receiver.recv_timeout(Duration::from_secs(120)) {
        Ok(summary) => summary,
        Err(_) => panic!("diagnostics did not come back: the worker panicked, overflowed or hung"),
    };
    let _ = worker.join();
    let rendered: String = summary
        .iter()
        .map(|(code, count, line)| format!("{code} x{count}, first on line {line}\n"))
        .collect();
    expect.assert_eq(&rendered);
}

const POLICY_HEAD: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  validations:
";

#[test]
fn binary_junk() {
    let junk: String = (0u32..4096)
        .filter_map(|n| char::from_u32((n * 7919) % 0x3000))
        .collect();
    check_survives(
        junk,
        expect![[r#"
        yaml-syntax x1, first on line 1
    "#]],
    );
}

#[test]
fn invalid_utf8_decoded_lossily() {
    let bytes: Vec<u8> = (0u8..=255).cycle().take(10_000).collect();
    check_survives(
        String::from_utf8_lossy(&bytes).into_owned(),
        expect![[r#"
            yaml-syntax x1, first on line 1
        "#]],
    );
}

#[test]
fn a_20_mb_file() {
    let mut text = String::from(POLICY_HEAD);
    let line =
        "  - expression: object.spec.replicas <= 5 && object.metadata.name.startsWith('web-')\n";
    while text.len() < 20 * 1024 * 1024 {
        text.push_str(line);
    }
    check_survives(text, expect![[r#""#]]);
}

#[test]
fn ten_thousand_documents() {
    let mut text = String::new();
    for n in 0..10_000 {
        text.push_str(&POLICY_HEAD.replace("name: demo", &format!("name: demo-{n}")));
        text.push_str("  - expression: object.spec.replicas <= 5\n---\n");
    }
    text.push_str("key: [unclosed\n");
    check_survives(
        text,
        expect![[r#"
        yaml-syntax x1, first on line 110002
    "#]],
    );
}

#[test]
fn yaml_nested_ten_thousand_deep() {
    let flow = format!("a: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    check_survives(
        flow,
        expect![[r#"
        yaml-syntax x1, first on line 1
    "#]],
    );
    let mut block = String::new();
    for depth in 0..10_000 {
        block.push_str(&" ".repeat(depth));
        block.push_str("k:\n");
    }
    check_survives(
        block,
        expect![[r#"
        yaml-syntax x1, first on line 1001
    "#]],
    );
}

#[test]
fn alias_bomb() {
    let mut text = String::from(
        "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    let names = ["b", "c", "d", "e", "f", "g", "h", "i"];
    let mut previous = "a";
    for name in names {
        let list = vec![format!("*{previous}"); 9].join(", ");
        text.push_str(&format!("{name}: &{name} [{list}]\n"));
        previous = name;
    }
    check_survives(
        text,
        expect![[r#"
        yaml-syntax x1, first on line 7
    "#]],
    );
}

#[test]
fn cel_with_100_000_nested_parentheses() {
    let expression = format!("{}true{}", "(".repeat(100_000), ")".repeat(100_000));
    check_survives(
        format!("{POLICY_HEAD}  - expression: {expression}\n"),
        expect![[r#""#]],
    );
}

#[test]
fn half_typed_expression_on_every_keystroke() {
    let expression =
        "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))";
    let mut codes_per_prefix = Vec::new();
    for end in 0..=expression.len() {
        let text = format!(
            "{POLICY_HEAD}  - expression: |\n      {}\n",
            &expression[..end]
        );
        let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
        let mut codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
        codes.dedup();
        codes_per_prefix.push(format!(
            "{:>2} {:<40} {}",
            end,
            &expression[end.saturating_sub(40)..end],
            codes.join(",")
        ));
    }
    let rendered = codes_per_prefix.join("\n");
    expect![[r#"
         0                                          
         1 o                                        
         2 ob                                       
         3 obj                                      
         4 obje                                     
         5 objec                                    
         6 object                                   
         7 object.                                  
         8 object.s                                 
         9 object.sp                                
        10 object.spe                               
        11 object.spec                              
        12 object.spec.                             
        13 object.spec.t                            
        14 object.spec.te                           
        15 object.spec.tem                          
        16 object.spec.temp                         
        17 object.spec.templ                        
        18 object.spec.templa                       
        19 object.spec.templat                      
        20 object.spec.template                     
        21 object.spec.template.                    
        22 object.spec.template.s                   
        23 object.spec.template.sp                  
        24 object.spec.template.spe                 
        25 object.spec.template.spec                
        26 object.spec.template.spec.               
        27 object.spec.template.spec.c              
        28 object.spec.template.spec.co             
        29 object.spec.template.spec.con            
        30 object.spec.template.spec.cont           
        31 object.spec.template.spec.conta          
        32 object.spec.template.spec.contai         
        33 object.spec.template.spec.contain        
        34 object.spec.template.spec.containe       
        35 object.spec.template.spec.container      
        36 object.spec.template.spec.containers     
        37 object.spec.template.spec.containers.    
        38 object.spec.template.spec.containers.a   
        39 object.spec.template.spec.containers.al  
        40 object.spec.template.spec.containers.all 
        41 bject.spec.template.spec.containers.all( 
        42 ject.spec.template.spec.containers.all(c 
        43 ect.spec.template.spec.containers.all(c, 
        44 ct.spec.template.spec.containers.all(c,  
        45 t.spec.template.spec.containers.all(c, c 
        46 .spec.template.spec.containers.all(c, c. 
        47 spec.template.spec.containers.all(c, c.i 
        48 pec.template.spec.containers.all(c, c.im 
        49 ec.template.spec.containers.all(c, c.ima 
        50 c.template.spec.containers.all(c, c.imag 
        51 .template.spec.containers.all(c, c.image 
        52 template.spec.containers.all(c, c.image. 
        53 emplate.spec.containers.all(c, c.image.s 
        54 mplate.spec.containers.all(c, c.image.st 
        55 plate.spec.containers.all(c, c.image.sta 
        56 late.spec.containers.all(c, c.image.star 
        57 ate.spec.containers.all(c, c.image.start 
        58 te.spec.containers.all(c, c.image.starts 
        59 e.spec.containers.all(c, c.image.startsW 
        60 .spec.containers.all(c, c.image.startsWi 
        61 spec.containers.all(c, c.image.startsWit 
        62 pec.containers.all(c, c.image.startsWith 
        63 ec.containers.all(c, c.image.startsWith( 
        64 c.containers.all(c, c.image.startsWith(' 
        65 .containers.all(c, c.image.startsWith('r 
        66 containers.all(c, c.image.startsWith('re 
        67 ontainers.all(c, c.image.startsWith('reg 
        68 ntainers.all(c, c.image.startsWith('regi 
        69 tainers.all(c, c.image.startsWith('regis 
        70 ainers.all(c, c.image.startsWith('regist 
        71 iners.all(c, c.image.startsWith('registr 
        72 ners.all(c, c.image.startsWith('registry 
        73 ers.all(c, c.image.startsWith('registry. 
        74 rs.all(c, c.image.startsWith('registry.e 
        75 s.all(c, c.image.startsWith('registry.ex 
        76 .all(c, c.image.startsWith('registry.exa 
        77 all(c, c.image.startsWith('registry.exam 
        78 ll(c, c.image.startsWith('registry.examp 
        79 l(c, c.image.startsWith('registry.exampl 
        80 (c, c.image.startsWith('registry.example 
        81 c, c.image.startsWith('registry.example. 
        82 , c.image.startsWith('registry.example.c 
        83  c.image.startsWith('registry.example.co 
        84 c.image.startsWith('registry.example.com 
        85 .image.startsWith('registry.example.com/ 
        86 image.startsWith('registry.example.com/' 
        87 mage.startsWith('registry.example.com/') 
        88 age.startsWith('registry.example.com/')) "#]]
    .assert_eq(&rendered);
}
