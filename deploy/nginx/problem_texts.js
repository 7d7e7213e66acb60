// The problem documents nginx answers itself, in each language: written by
// `make messages` from chickenfoot/i18n/proxy_problems.py and the catalogs in locale/.
// deploy/nginx/refusals.js answers with them.
export default {
  "languages": [
    "en",
    "lo",
    "th",
    "hy",
    "ceb"
  ],
  "fallback": "en",
  "problems": {
    "bad-request": {
      "status": 400,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/bad-request\", \"title\": \"Bad request\", \"status\": 400, \"detail\": \"The request is malformed: control characters or spaces where none may be, or a request line or header that is not HTTP.\", \"code\": \"bad_request\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/bad-request\", \"title\": \"ຄຳຮ້ອງຂໍບໍ່ຖືກຕ້ອງ\", \"status\": 400, \"detail\": \"ຄຳຮ້ອງຂໍຜິດຮູບແບບ: ມີຕົວອັກສອນຄວບຄຸມ ຫຼື ຍະຫວ່າງ ໃນບ່ອນທີ່ບໍ່ຄວນມີ, ຫຼື ແຖວຄຳຮ້ອງຂໍ ຫຼື ສ່ວນຫົວ ທີ່ບໍ່ແມ່ນ HTTP.\", \"code\": \"bad_request\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/bad-request\", \"title\": \"คำขอไม่ถูกต้อง\", \"status\": 400, \"detail\": \"คำขอมีรูปแบบผิด: มีอักขระควบคุมหรือช่องว่างในที่ที่ไม่ควรมี หรือมีบรรทัดคำขอหรือส่วนหัวที่ไม่ใช่ HTTP\", \"code\": \"bad_request\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/bad-request\", \"title\": \"Սխալ հարցում\", \"status\": 400, \"detail\": \"Հարցումը սխալ է կազմված. կառավարման նշաններ կամ բացատներ այնտեղ, որտեղ դրանք չպետք է լինեն, կամ հարցման տող կամ վերնագիր, որը HTTP չէ։\", \"code\": \"bad_request\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/bad-request\", \"title\": \"Sayop nga hangyo\", \"status\": 400, \"detail\": \"Sayop ang porma sa hangyo: adunay control character o luna diin dili angay, o linya sa hangyo o header nga dili HTTP.\", \"code\": \"bad_request\"}"
      }
    },
    "network-not-allowed": {
      "status": 403,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/network-not-allowed\", \"title\": \"Network not allowed\", \"status\": 403, \"detail\": \"The admin is reachable from the operators' networks only.\", \"code\": \"network_not_allowed\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/network-not-allowed\", \"title\": \"ເຄືອຂ່າຍນີ້ບໍ່ໄດ້ຮັບອະນຸຍາດ\", \"status\": 403, \"detail\": \"ໜ້າຜູ້ດູແລລະບົບເຂົ້າເຖິງໄດ້ຈາກເຄືອຂ່າຍຂອງຜູ້ດຳເນີນການເທົ່ານັ້ນ.\", \"code\": \"network_not_allowed\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/network-not-allowed\", \"title\": \"ไม่อนุญาตเครือข่ายนี้\", \"status\": 403, \"detail\": \"หน้าผู้ดูแลระบบเข้าถึงได้จากเครือข่ายของผู้ดูแลบริการเท่านั้น\", \"code\": \"network_not_allowed\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/network-not-allowed\", \"title\": \"Ցանցը թույլատրված չէ\", \"status\": 403, \"detail\": \"Ադմինիստրատորի էջը հասանելի է միայն օպերատորների ցանցերից։\", \"code\": \"network_not_allowed\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/network-not-allowed\", \"title\": \"Dili tugotan ang network\", \"status\": 403, \"detail\": \"Ang admin maabot lamang gikan sa mga network sa mga operator.\", \"code\": \"network_not_allowed\"}"
      }
    },
    "not-found": {
      "status": 404,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"Not found\", \"status\": 404, \"detail\": \"Nothing is served at this address.\", \"code\": \"not_found\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"ບໍ່ພົບ\", \"status\": 404, \"detail\": \"ບໍ່ມີຫຍັງໃຫ້ບໍລິການຢູ່ທີ່ຢູ່ນີ້.\", \"code\": \"not_found\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"ไม่พบ\", \"status\": 404, \"detail\": \"ไม่มีสิ่งใดให้บริการที่ที่อยู่นี้\", \"code\": \"not_found\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"Չի գտնվել\", \"status\": 404, \"detail\": \"Այս հասցեում ոչինչ չի մատուցվում։\", \"code\": \"not_found\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"Wala makit-i\", \"status\": 404, \"detail\": \"Walay gisilbi niini nga adres.\", \"code\": \"not_found\"}"
      }
    },
    "metrics": {
      "status": 404,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"Not found\", \"status\": 404, \"detail\": \"Nothing is served at /metrics.\", \"code\": \"not_found\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"ບໍ່ພົບ\", \"status\": 404, \"detail\": \"ບໍ່ມີຫຍັງໃຫ້ບໍລິການຢູ່ /metrics.\", \"code\": \"not_found\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"ไม่พบ\", \"status\": 404, \"detail\": \"ไม่มีสิ่งใดให้บริการที่ /metrics\", \"code\": \"not_found\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"Չի գտնվել\", \"status\": 404, \"detail\": \"/metrics հասցեում ոչինչ չի մատուցվում։\", \"code\": \"not_found\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/not-found\", \"title\": \"Wala makit-i\", \"status\": 404, \"detail\": \"Walay gisilbi sa /metrics.\", \"code\": \"not_found\"}"
      }
    },
    "body-too-large": {
      "status": 413,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/body-too-large\", \"title\": \"Body too large\", \"status\": 413, \"detail\": \"The request body is larger than the server accepts.\", \"code\": \"body_too_large\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/body-too-large\", \"title\": \"ເນື້ອຫາໃຫຍ່ເກີນໄປ\", \"status\": 413, \"detail\": \"ເນື້ອຫາຄຳຮ້ອງຂໍໃຫຍ່ກວ່າທີ່ເຊີບເວີຮັບໄດ້.\", \"code\": \"body_too_large\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/body-too-large\", \"title\": \"เนื้อหาใหญ่เกินไป\", \"status\": 413, \"detail\": \"เนื้อหาคำขอใหญ่เกินกว่าที่เซิร์ฟเวอร์รับได้\", \"code\": \"body_too_large\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/body-too-large\", \"title\": \"Մարմինը չափազանց մեծ է\", \"status\": 413, \"detail\": \"Հարցման մարմինը մեծ է, քան սերվերն ընդունում է։\", \"code\": \"body_too_large\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/body-too-large\", \"title\": \"Dako kaayo ang body\", \"status\": 413, \"detail\": \"Ang body sa hangyo mas dako kaysa dawaton sa server.\", \"code\": \"body_too_large\"}"
      }
    },
    "uri-too-long": {
      "status": 414,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/uri-too-long\", \"title\": \"URI too long\", \"status\": 414, \"detail\": \"The request line is longer than the 4,096 bytes the server accepts.\", \"code\": \"uri_too_long\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/uri-too-long\", \"title\": \"URI ຍາວເກີນໄປ\", \"status\": 414, \"detail\": \"ແຖວຄຳຮ້ອງຂໍຍາວກວ່າ 4.096 ໄບທີ່ເຊີບເວີຮັບໄດ້.\", \"code\": \"uri_too_long\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/uri-too-long\", \"title\": \"URI ยาวเกินไป\", \"status\": 414, \"detail\": \"บรรทัดคำขอยาวเกิน 4,096 ไบต์ที่เซิร์ฟเวอร์รับได้\", \"code\": \"uri_too_long\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/uri-too-long\", \"title\": \"URI-ն չափազանց երկար է\", \"status\": 414, \"detail\": \"Հարցման տողը երկար է սերվերի ընդունած 4 096 բայթից։\", \"code\": \"uri_too_long\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/uri-too-long\", \"title\": \"Taas ra kaayo ang URI\", \"status\": 414, \"detail\": \"Ang linya sa hangyo mas taas kaysa 4,096 ka byte nga dawaton sa server.\", \"code\": \"uri_too_long\"}"
      }
    },
    "header-too-large": {
      "status": 431,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/header-too-large\", \"title\": \"Header too large\", \"status\": 431, \"detail\": \"A request header is longer than the 4,096 bytes the server accepts, the headers together are longer than 16 KiB, or there are more than 64 of them.\", \"code\": \"header_too_large\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/header-too-large\", \"title\": \"ສ່ວນຫົວໃຫຍ່ເກີນໄປ\", \"status\": 431, \"detail\": \"ສ່ວນຫົວໜຶ່ງຂອງຄຳຮ້ອງຂໍຍາວກວ່າ 4.096 ໄບທີ່ເຊີບເວີຮັບໄດ້, ສ່ວນຫົວທັງໝົດລວມກັນຍາວກວ່າ 16 KiB, ຫຼື ມີສ່ວນຫົວຫຼາຍກວ່າ 64 ລາຍການ.\", \"code\": \"header_too_large\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/header-too-large\", \"title\": \"ส่วนหัวใหญ่เกินไป\", \"status\": 431, \"detail\": \"ส่วนหัวของคำขอรายการหนึ่งยาวเกิน 4,096 ไบต์ที่เซิร์ฟเวอร์รับได้ ส่วนหัวรวมกันยาวเกิน 16 KiB หรือมีส่วนหัวมากกว่า 64 รายการ\", \"code\": \"header_too_large\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/header-too-large\", \"title\": \"Վերնագիրը չափազանց մեծ է\", \"status\": 431, \"detail\": \"Հարցման վերնագրերից մեկը երկար է սերվերի ընդունած 4 096 բայթից, վերնագրերը միասին երկար են 16 KiB-ից, կամ դրանք 64-ից շատ են։\", \"code\": \"header_too_large\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/header-too-large\", \"title\": \"Dako ra kaayo ang header\", \"status\": 431, \"detail\": \"Usa ka header sa hangyo mas taas kaysa 4,096 ka byte nga dawaton sa server, ang tanang header mas taas kaysa 16 KiB, o sobra sila sa 64.\", \"code\": \"header_too_large\"}"
      }
    },
    "bad-gateway": {
      "status": 502,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/bad-gateway\", \"title\": \"Bad gateway\", \"status\": 502, \"detail\": \"The API server ended the request without an answer. Try again.\", \"code\": \"bad_gateway\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/bad-gateway\", \"title\": \"ເກດເວຂັດຂ້ອງ\", \"status\": 502, \"detail\": \"ເຊີບເວີ API ຈົບຄຳຮ້ອງຂໍໂດຍບໍ່ມີຄຳຕອບ. ລອງໃໝ່ອີກຄັ້ງ.\", \"code\": \"bad_gateway\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/bad-gateway\", \"title\": \"เกตเวย์ผิดพลาด\", \"status\": 502, \"detail\": \"เซิร์ฟเวอร์ API จบคำขอโดยไม่มีคำตอบ โปรดลองอีกครั้ง\", \"code\": \"bad_gateway\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/bad-gateway\", \"title\": \"Սխալ դարպաս\", \"status\": 502, \"detail\": \"API սերվերն ավարտեց հարցումն առանց պատասխանի։ Փորձեք կրկին։\", \"code\": \"bad_gateway\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/bad-gateway\", \"title\": \"Dili maayong gateway\", \"status\": 502, \"detail\": \"Gitapos sa API server ang hangyo nga walay tubag. Sulayi pag-usab.\", \"code\": \"bad_gateway\"}"
      }
    },
    "http-version-not-supported": {
      "status": 505,
      "bodies": {
        "en": "{\"type\": \"https://chickenfoot.dev/problems/http-version-not-supported\", \"title\": \"HTTP version not supported\", \"status\": 505, \"detail\": \"The server speaks HTTP/1.0 and HTTP/1.1.\", \"code\": \"http_version_not_supported\"}",
        "lo": "{\"type\": \"https://chickenfoot.dev/problems/http-version-not-supported\", \"title\": \"ບໍ່ຮອງຮັບ HTTP ລຸ້ນນີ້\", \"status\": 505, \"detail\": \"ເຊີບເວີໃຊ້ HTTP/1.0 ແລະ HTTP/1.1.\", \"code\": \"http_version_not_supported\"}",
        "th": "{\"type\": \"https://chickenfoot.dev/problems/http-version-not-supported\", \"title\": \"ไม่รองรับ HTTP เวอร์ชันนี้\", \"status\": 505, \"detail\": \"เซิร์ฟเวอร์ใช้ HTTP/1.0 และ HTTP/1.1\", \"code\": \"http_version_not_supported\"}",
        "hy": "{\"type\": \"https://chickenfoot.dev/problems/http-version-not-supported\", \"title\": \"HTTP-ի այս տարբերակը չի աջակցվում\", \"status\": 505, \"detail\": \"Սերվերն աջակցում է HTTP/1.0 և HTTP/1.1։\", \"code\": \"http_version_not_supported\"}",
        "ceb": "{\"type\": \"https://chickenfoot.dev/problems/http-version-not-supported\", \"title\": \"Dili suportado kini nga bersyon sa HTTP\", \"status\": 505, \"detail\": \"Ang server mogamit og HTTP/1.0 ug HTTP/1.1.\", \"code\": \"http_version_not_supported\"}"
      }
    }
  }
};
