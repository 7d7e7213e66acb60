// How each language writes dates and numbers (Babel's CLDR data), for formats.js.
// Written by `python -m chickenfoot.i18n.js_formats`: do not edit.
export const LOCALES = {
  "ceb": {
    "am": "AM",
    "date": {
      "long": "MMMM d, y",
      "medium": "MMM d, y",
      "short": "M/d/yy"
    },
    "dateTime": {
      "medium": "{1}, {0}",
      "short": "{1}, {0}"
    },
    "decimal": ".",
    "era": "AD",
    "group": ",",
    "minus": "-",
    "months": [
      "Ene",
      "Peb",
      "Mar",
      "Abr",
      "May",
      "Hun",
      "Hul",
      "Ago",
      "Sep",
      "Okt",
      "Nob",
      "Dis"
    ],
    "monthsWide": [
      "Enero",
      "Pebrero",
      "Marso",
      "Abril",
      "Mayo",
      "Hunyo",
      "Hulyo",
      "Agosto",
      "Septyembre",
      "Oktubre",
      "Nobyembre",
      "Disyembre"
    ],
    "pm": "PM",
    "time": {
      "medium": "h:mm:ss a",
      "short": "h:mm a"
    }
  },
  "en": {
    "am": "AM",
    "date": {
      "long": "MMMM d, y",
      "medium": "MMM d, y",
      "short": "M/d/yy"
    },
    "dateTime": {
      "medium": "{1}, {0}",
      "short": "{1}, {0}"
    },
    "decimal": ".",
    "era": "AD",
    "group": ",",
    "minus": "-",
    "months": [
      "Jan",
      "Feb",
      "Mar",
      "Apr",
      "May",
      "Jun",
      "Jul",
      "Aug",
      "Sep",
      "Oct",
      "Nov",
      "Dec"
    ],
    "monthsWide": [
      "January",
      "February",
      "March",
      "April",
      "May",
      "June",
      "July",
      "August",
      "September",
      "October",
      "November",
      "December"
    ],
    "pm": "PM",
    "time": {
      "medium": "h:mm:ss a",
      "short": "h:mm a"
    }
  },
  "hy": {
    "am": "AM",
    "date": {
      "long": "dd MMMM, y թ.",
      "medium": "dd MMM, y թ.",
      "short": "dd.MM.yy"
    },
    "dateTime": {
      "medium": "{1}, {0}",
      "short": "{1}, {0}"
    },
    "decimal": ",",
    "era": "մ.թ.",
    "group": " ",
    "minus": "-",
    "months": [
      "հնվ",
      "փտվ",
      "մրտ",
      "ապր",
      "մյս",
      "հնս",
      "հլս",
      "օգս",
      "սեպ",
      "հոկ",
      "նոյ",
      "դեկ"
    ],
    "monthsWide": [
      "հունվարի",
      "փետրվարի",
      "մարտի",
      "ապրիլի",
      "մայիսի",
      "հունիսի",
      "հուլիսի",
      "օգոստոսի",
      "սեպտեմբերի",
      "հոկտեմբերի",
      "նոյեմբերի",
      "դեկտեմբերի"
    ],
    "pm": "PM",
    "time": {
      "medium": "HH:mm:ss",
      "short": "HH:mm"
    }
  },
  "lo": {
    "am": "ກ່ອນທ່ຽງ",
    "date": {
      "long": "d MMMM y",
      "medium": "d MMM y",
      "short": "d/M/y"
    },
    "dateTime": {
      "medium": "{1}, {0}",
      "short": "{1}, {0}"
    },
    "decimal": ",",
    "era": "ຄ.ສ.",
    "group": ".",
    "minus": "-",
    "months": [
      "ມ.ກ.",
      "ກ.ພ.",
      "ມ.ນ.",
      "ມ.ສ.",
      "ພ.ພ.",
      "ມິ.ຖ.",
      "ກ.ລ.",
      "ສ.ຫ.",
      "ກ.ຍ.",
      "ຕ.ລ.",
      "ພ.ຈ.",
      "ທ.ວ."
    ],
    "monthsWide": [
      "ມັງກອນ",
      "ກຸມພາ",
      "ມີນາ",
      "ເມສາ",
      "ພຶດສະພາ",
      "ມິຖຸນາ",
      "ກໍລະກົດ",
      "ສິງຫາ",
      "ກັນຍາ",
      "ຕຸລາ",
      "ພະຈິກ",
      "ທັນວາ"
    ],
    "pm": "ຫຼັງທ່ຽງ",
    "time": {
      "medium": "H:mm:ss",
      "short": "H:mm"
    }
  },
  "th": {
    "am": "AM",
    "date": {
      "long": "d MMMM G y",
      "medium": "d MMM y",
      "short": "d/M/yy"
    },
    "dateTime": {
      "medium": "{1} {0}",
      "short": "{1} {0}"
    },
    "decimal": ".",
    "era": "ค.ศ.",
    "group": ",",
    "minus": "-",
    "months": [
      "ม.ค.",
      "ก.พ.",
      "มี.ค.",
      "เม.ย.",
      "พ.ค.",
      "มิ.ย.",
      "ก.ค.",
      "ส.ค.",
      "ก.ย.",
      "ต.ค.",
      "พ.ย.",
      "ธ.ค."
    ],
    "monthsWide": [
      "มกราคม",
      "กุมภาพันธ์",
      "มีนาคม",
      "เมษายน",
      "พฤษภาคม",
      "มิถุนายน",
      "กรกฎาคม",
      "สิงหาคม",
      "กันยายน",
      "ตุลาคม",
      "พฤศจิกายน",
      "ธันวาคม"
    ],
    "pm": "PM",
    "time": {
      "medium": "HH:mm:ss",
      "short": "HH:mm"
    }
  }
};
